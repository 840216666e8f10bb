import { execFile } from 'node:child_process';
import type { Clock } from '../../drivers/clock.ts';
import type { EventBus } from '../events/bus.ts';

/**
 * sd_notify(3) for the systemd unit (systemd/greenhouse-gateway.service): READY=1 once the gateway
 * listens, WATCHDOG=1 after the sampling loop has actually run, STOPPING=1 on shutdown, STATUS= for
 * `systemctl status`.
 *
 * Why a `systemd-notify` child process: $NOTIFY_SOCKET is a unix *datagram* socket and Node has no
 * unix datagram sockets (dgram is UDP only; net is stream only), and a native addon would be one more
 * thing to build on the Pi. systemd-notify ships with systemd, waits until the manager has processed
 * the message (so the short-lived sender cannot race it), and the unit's NotifyAccess=all lets systemd
 * accept it from a process other than the main PID. A ping every 15 s costs one fork.
 */
export type NotifySender = (fields: string[]) => Promise<void>;

export interface NotifyLogger {
  warn(obj: object, msg: string): void;
}

/** Sends through `systemd-notify`; null when not run by systemd (no NOTIFY_SOCKET): then nothing is sent. */
export function systemdNotifySender(
  env: Record<string, string | undefined>,
  command = 'systemd-notify',
): NotifySender | null {
  if (!env.NOTIFY_SOCKET) return null;
  return (fields) =>
    new Promise((resolve, reject) => {
      execFile(command, fields, { env: { ...env }, timeout: 5_000 }, (err) => (err ? reject(err) : resolve()));
    });
}

/**
 * The watchdog period systemd asks for, from WATCHDOG_USEC (and WATCHDOG_PID, which names the process
 * that must ping; another process, e.g. a child, must not). Null: no watchdog.
 */
export function watchdogIntervalMs(env: Record<string, string | undefined>, pid: number): number | null {
  const usec = Number(env.WATCHDOG_USEC);
  if (!env.WATCHDOG_USEC || !Number.isFinite(usec) || usec <= 0) return null;
  if (env.WATCHDOG_PID && Number(env.WATCHDOG_PID) !== pid) return null;
  return usec / 1000;
}

export interface SystemdNotifierOptions {
  bus: EventBus;
  /** Real time (never the simulator's scaled clock: systemd's watchdog counts wall-clock time). */
  clock: Clock;
  /** Null: not under systemd; every call is a no-op. */
  send: NotifySender | null;
  /** systemd's WatchdogSec in ms, or null for no watchdog pings. */
  watchdogMs: number | null;
  logger: NotifyLogger;
}

export class SystemdNotifier {
  readonly #options: SystemdNotifierOptions;
  #lastPingMs: number | null = null;
  #unsubscribe: (() => void) | null = null;
  #stopping = false;

  constructor(options: SystemdNotifierOptions) {
    this.#options = options;
  }

  get enabled(): boolean {
    return this.#options.send !== null;
  }

  /**
   * Subscribes the watchdog to the sampling loop. The ping proves a tick ran (not just that the event
   * loop is alive, which a bare timer would prove) and is sent at most every half period, as
   * sd_watchdog_enabled(3) recommends.
   */
  start(): void {
    const { watchdogMs, bus, clock } = this.#options;
    if (!this.enabled || watchdogMs === null || this.#unsubscribe) return;
    const minIntervalMs = watchdogMs / 2;
    this.#unsubscribe = bus.on('samplerTicked', 'systemd-watchdog', () => {
      if (this.#stopping) return;
      const nowMs = clock.now();
      if (this.#lastPingMs !== null && nowMs - this.#lastPingMs < minIntervalMs) return;
      this.#lastPingMs = nowMs;
      this.#send(['WATCHDOG=1']);
    });
  }

  /** The gateway listens and its outputs are safe. */
  ready(status: string): Promise<void> {
    return this.#send(['READY=1', `STATUS=${status}`]);
  }

  status(status: string): Promise<void> {
    return this.#send([`STATUS=${status}`]);
  }

  /** Shutdown began: no more watchdog pings, systemd waits up to TimeoutStopSec. */
  stopping(): Promise<void> {
    this.#stopping = true;
    this.stop();
    return this.#send(['STOPPING=1', 'STATUS=Stopping: outputs to safe state']);
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #send(fields: string[]): Promise<void> {
    const send = this.#options.send;
    if (!send) return Promise.resolve();
    // A lost notification must never take the gateway down: systemd's watchdog is the backstop.
    return send(fields).catch((err: unknown) => {
      this.#options.logger.warn({ err, fields }, 'sd_notify failed');
    });
  }
}
