import { ConfigError } from './config/load.ts';
import { createGateway } from './gateway.ts';

/** Starts the gateway from the process environment (design.md, Run-time interface). */
async function main(): Promise<void> {
  let gateway;
  try {
    gateway = await createGateway({
      env: process.env,
      logger: { level: process.env.LOG_LEVEL ?? 'info', redact: ['req.headers.authorization'] },
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG: systemd does not restart-loop on a bad config
    }
    throw err;
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.app.log.info({ signal }, 'shutting down');
    try {
      await gateway.stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await gateway.start();
  for (const driver of gateway.hardware.status()) {
    if (!driver.available) gateway.app.log.warn({ driver: driver.name, reason: driver.reason }, `driver unavailable: ${driver.name}`);
  }
  gateway.app.log.info(`Greenhouse dashboard at ${gateway.url} (hardware: ${gateway.config.hardware})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
