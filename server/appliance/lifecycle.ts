import type { Clock } from '../../common/clock.ts';
import type { SystemdNotifier } from './notify.ts';

/** The part of `process` the lifecycle uses (tests pass an EventEmitter and a fake exit). */
export interface ProcessLike {
  on(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  removeListener(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  exit(code: number): void;
}

export interface LifecycleLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnableGateway {
  start(): Promise<void>;
  /** Stops accepting, drives outputs to their safe state, closes the database. */
  stop(): Promise<void>;
}

export interface LifecycleOptions {
  gateway: RunnableGateway;
  notifier: SystemdNotifier;
  process: ProcessLike;
  /** Real time: the deadline is wall-clock, whatever the simulator's clock does. */
  clock: Clock;
  logger: LifecycleLogger;
  /**
   * Drives every output to its safe state. Called first on shutdown, before anything that could hang
   * (closing connections, features' stop), so the forced exit of the deadline finds them safe already.
   */
  makeOutputsSafe: () => Promise<void>;
  /** Text for `systemctl status` once ready. */
  readyStatus: () => string;
  /**
   * Hard deadline of a shutdown. Below the unit's TimeoutStopSec (20 s) so the gateway exits on its
   * own terms instead of being SIGKILLed; either way the unit's ExecStopPost (scripts/relays-off.mjs)
   * drives every relay off after the process is gone.
   */
  forceExitAfterMs?: number;
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export const FORCE_EXIT_AFTER_MS = 10_000;

/**
 * Resolves once the event loop has polled for I/O at least once more (a signal arrives through that
 * poll): the first setImmediate may still run in the current turn's check phase, the second cannot.
 */
const afterNextPoll = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * Runs the gateway as the appliance's process: start, READY=1, and on SIGTERM/SIGINT one orderly stop
 * (outputs safe, then STOPPING=1 without waiting, then gateway.stop()) bounded by a hard deadline.
 * Exit 0 on a clean stop, 1 otherwise.
 */
export async function runAppliance(options: LifecycleOptions): Promise<{ shutdown: (signal: string) => Promise<void> }> {
  const { gateway, notifier, process: proc, clock, logger } = options;
  const forceExitAfterMs = options.forceExitAfterMs ?? FORCE_EXIT_AFTER_MS;
  let stopping: Promise<void> | null = null;

  const shutdown = (signal: string): Promise<void> => {
    // A second Ctrl-C while stopping changes nothing: the deadline below already bounds the wait.
    stopping ??= (async () => {
      logger.info({ signal }, 'shutting down: outputs to safe state, closing the database');
      const deadline = clock.setTimeout(() => {
        logger.error({ signal, forceExitAfterMs }, 'shutdown took too long: forcing exit');
        proc.exit(1);
      }, forceExitAfterMs);
      // Outputs first, before anything that could wait: not even sd_notify may stand between a SIGTERM
      // and the relays going off (docs/decisions.md, Safety beyond the rules).
      let code = 0;
      try {
        await options.makeOutputsSafe();
        logger.info({ signal }, 'outputs in their safe state');
      } catch (err) {
        logger.error({ err, signal }, 'could not drive every output to its safe state');
        code = 1;
      }
      // Non-blocking and not awaited: the manager learns we are stopping, and nothing waits for it.
      void notifier.stopping();
      try {
        await gateway.stop();
        logger.info({ signal }, 'stopped cleanly');
      } catch (err) {
        logger.error({ err, signal }, 'shutdown failed');
        code = 1;
      }
      clock.clearTimeout(deadline);
      proc.exit(code);
    })();
    return stopping;
  };
  const onSignal = { SIGTERM: () => void shutdown('SIGTERM'), SIGINT: () => void shutdown('SIGINT') };
  const listen = () => {
    for (const signal of SIGNALS) {
      proc.removeListener(signal, onSignal[signal]);
      proc.on(signal, onSignal[signal]);
    }
  };

  listen();
  await gateway.start();
  // A signal that came while start was busy (the gateway already answers HTTP while it loads what can
  // wait) sits in libuv's queue for the listeners above, and swapping them would drop it: it is
  // dispatched first, and a shutdown under way is left to finish.
  await afterNextPoll();
  if (stopping) return { shutdown };
  // The pigpio C library installs its own SIGTERM/SIGINT handlers (which exit without our orderly
  // stop) when it initialises during start. Re-adding our listeners makes Node re-register its handler
  // with the kernel, so our shutdown runs again.
  listen();
  await notifier.ready(options.readyStatus());
  notifier.start();
  return { shutdown };
}
