import pino from 'pino';
import { SystemClock } from '../../common/clock.ts';
import { runAppliance } from './lifecycle.ts';
import { applianceLoggerOptions } from './logging.ts';
import { datagramNotifySender, SystemdNotifier, watchdogIntervalMs } from './notify.ts';
import { lowerV8HelperThreads } from './v8-helper-priority.ts';
import { ConfigError } from '../config/load.ts';
import { createGateway } from '../gateway.ts';

/**
 * The gateway process: starts the gateway from the process environment (docs/decisions.md, Run-time interface)
 * under systemd's notification and watchdog protocol, and stops it on SIGTERM/SIGINT outputs first.
 */
export async function runGatewayProcess(): Promise<void> {
  // Behind the event loop from the start: V8's helper threads collect garbage for every thread.
  const backgroundHelpers = lowerV8HelperThreads();
  let gateway;
  try {
    gateway = await createGateway({ env: process.env, logger: pino(applianceLoggerOptions(process.env)) });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG: the unit's RestartPreventExitStatus=78 stops a restart loop
    }
    throw err;
  }
  const log = gateway.app.log;
  log.debug({ threadIds: backgroundHelpers }, "V8's helper threads run at background priority");
  const readyStatus = () => {
    const missing = gateway.hardware.status().filter((driver) => !driver.available).map((driver) => driver.name);
    return `Dashboard at ${gateway.url} (hardware: ${gateway.config.hardware})${missing.length ? `; unavailable: ${missing.join(', ')}` : ''}`;
  };
  // systemd's watchdog and the shutdown deadline count wall-clock time, not the simulator's clock.
  const realClock = new SystemClock();
  const notifier = new SystemdNotifier({
    clock: realClock,
    send: await datagramNotifySender(process.env, log),
    watchdogMs: watchdogIntervalMs(process.env, process.pid),
    liveness: () => gateway.sampler.liveness(),
    logger: log,
  });
  // `systemctl status` says so when no sensor answers at all (the watchdog still runs: a restart would
  // not reconnect a sensor, and the relays stay under manual and safety control).
  let sensorsAnswering = true;
  gateway.bus.on('samplerTicked', 'systemd-status', () => {
    if (gateway.sampler.healthy() === sensorsAnswering) return;
    sensorsAnswering = gateway.sampler.healthy();
    void notifier.status(sensorsAnswering ? readyStatus() : `Degraded: no sensor answered the last sampling tick; ${readyStatus()}`);
  });
  await runAppliance({
    gateway,
    notifier,
    process,
    clock: realClock,
    logger: log,
    makeOutputsSafe: () => gateway.hardware.safeState(),
    readyStatus,
  });
  // On a Pi 5 (or with a package missing) the gateway runs without some drivers: say which, clearly.
  for (const driver of gateway.hardware.status()) {
    if (!driver.available) log.warn({ driver: driver.name, reason: driver.reason }, `driver unavailable: ${driver.name}`);
  }
  log.info(`Greenhouse dashboard at ${gateway.url} (hardware: ${gateway.config.hardware})`);
}
