// Run by systemd/greenhouse-gateway-failure.service when the gateway's unit fails for good (systemd
// stopped restarting it: a crash loop, or a config it refuses). Sends a CRITICAL through every
// notification channel the gateway has, reading the same config and the same outbox in the data dir
// (server/notifications/README.md). Run as `node dist/server/notify-failure.js`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { SystemClock } from '../common/clock.ts';
import { ConfigError, loadConfig, type ResolvedConfig } from './config/load.ts';
import { DATABASE_FILE, openDatabase } from './db/open.ts';
import { notifyGatewayFailure } from './notifications/gateway-failure.ts';

const logger = pino({ base: { feature: 'notify-failure' } });

/** The gateway's config; when the config itself is what failed, the environment's data dir is enough to find the channels. */
function config(env: NodeJS.ProcessEnv): ResolvedConfig {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    logger.warn({ err: err.message }, 'the gateway config does not load; sending without it (e-mail channels need it)');
    return loadConfig({ ...env, GREENHOUSE_CONFIG: undefined });
  }
}

/** systemd (v251+) tells an OnFailure= unit what happened to the unit it watches. */
function detailOf(env: NodeJS.ProcessEnv): string {
  const parts = [env.MONITOR_SERVICE_RESULT, env.MONITOR_EXIT_CODE && `${env.MONITOR_EXIT_CODE} ${env.MONITOR_EXIT_STATUS ?? ''}`.trim()].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'no details from systemd';
}

const resolved = config(process.env);
if (!existsSync(join(resolved.dataDir, DATABASE_FILE))) {
  logger.error({ dataDir: resolved.dataDir }, 'no gateway database here: no channels to notify');
  process.exit(66);
}
const database = openDatabase(resolved.dataDir);
try {
  const outcome = await notifyGatewayFailure({ config: resolved, db: database.db, clock: new SystemClock(), logger, detail: detailOf(process.env) });
  logger.info(outcome, 'gateway failure notified');
  // Exit status: 0 when at least one channel took it (or there is none to try), 1 when every one failed.
  process.exitCode = outcome.channels > 0 && outcome.delivered === 0 ? 1 : 0;
} finally {
  database.close();
}
