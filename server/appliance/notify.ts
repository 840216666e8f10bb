import type { Clock, TimerHandle } from '../../common/clock.ts';

/**
 * sd_notify(3) for the systemd unit (systemd/greenhouse-gateway.service): READY=1 once the gateway
 * listens, WATCHDOG=1 while the gateway is alive, STOPPING=1 on shutdown, STATUS= for `systemctl status`.
 *
 * The datagram goes straight from this process to $NOTIFY_SOCKET through unix-dgram (Node's dgram is
 * UDP only): no `systemd-notify` child. A child is what broke the appliance: pigpio's C library installs
 * its own handler for every signal, SIGCHLD included, so Node never reaps a child spawned after it
 * starts (docs/decisions.md, Field notes). The socket is non-blocking: a send never waits, whatever the manager
 * does, so nothing on the shutdown path can hang on it.
 */
export type NotifySender = (fields: string[]) => Promise<void>;

export interface NotifyLogger {
  warn(obj: object, msg: string): void;
}

/** The slice of unix-dgram's socket used here. */
export interface DatagramSocket {
  send(buf: Buffer, offset: number, length: number, path: string, callback: (err?: Error) => void): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
  close(): void;
}
export type CreateDatagramSocket = () => DatagramSocket;

/** unix-dgram, loaded only when systemd asked for notifications (never in tests or on a laptop). */
export async function loadUnixDgram(): Promise<CreateDatagramSocket> {
  const mod = (await import('unix-dgram')) as { default?: UnixDgram } & UnixDgram;
  const unixDgram = mod.default ?? mod;
  return () => unixDgram.createSocket('unix_dgram');
}
interface UnixDgram {
  createSocket(type: 'unix_dgram'): DatagramSocket;
}

/**
 * Sends each notification as one datagram to $NOTIFY_SOCKET; null when not run by systemd (no
 * NOTIFY_SOCKET): then nothing is sent. An abstract socket ("@name", used in some containers) is not
 * supported by unix-dgram: said once, then nothing is sent rather than a wrong path written to.
 */
export async function datagramNotifySender(
  env: Record<string, string | undefined>,
  logger: NotifyLogger,
  load: () => Promise<CreateDatagramSocket> = loadUnixDgram,
): Promise<NotifySender | null> {
  const path = env.NOTIFY_SOCKET;
  if (!path) return null;
  if (path.startsWith('@')) {
    logger.warn({ notifySocket: path }, 'sd_notify: abstract notification sockets are not supported; not notifying systemd');
    return null;
  }
  const socket = (await load())();
  // An asynchronous socket error (none is expected for sendto on a datagram socket) must not crash us.
  socket.on('error', (err) => logger.warn({ err }, 'sd_notify socket error'));
  return (fields) =>
    new Promise((resolve, reject) => {
      const message = Buffer.from(`${fields.join('\n')}\n`);
      socket.send(message, 0, message.length, path, (err) => (err ? reject(err) : resolve()));
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

/** Whether the part that keeps the greenhouse safe is doing its job (the sampling loop's liveness). */
export type LivenessCheck = () => { alive: true } | { alive: false; reason: string };

export interface SystemdNotifierOptions {
  /** Real time (never the simulator's scaled clock: systemd's watchdog counts wall-clock time). */
  clock: Clock;
  /** Null: not under systemd; every call is a no-op. */
  send: NotifySender | null;
  /** systemd's WatchdogSec in ms, or null for no watchdog pings. */
  watchdogMs: number | null;
  /** Checked before every ping: no ping while the loop is wedged, so systemd restarts the gateway. */
  liveness: LivenessCheck;
  logger: NotifyLogger;
}

export class SystemdNotifier {
  readonly #options: SystemdNotifierOptions;
  #timer: TimerHandle | null = null;
  #stopping = false;
  #lastDeadReason: string | null = null;

  constructor(options: SystemdNotifierOptions) {
    this.#options = options;
  }

  get enabled(): boolean {
    return this.#options.send !== null;
  }

  /**
   * Pings the watchdog every half period (as sd_watchdog_enabled(3) recommends) from a timer, so the
   * ping does not depend on the sampling interval (which may be an hour): the timer firing proves the
   * event loop runs, and the liveness check proves the sampling loop is scheduled and not stuck in a
   * tick. Either failing leaves systemd to restart the gateway (its ExecStopPost makes relays safe).
   */
  start(): void {
    const { watchdogMs } = this.#options;
    if (!this.enabled || watchdogMs === null || this.#timer || this.#stopping) return;
    this.#ping();
  }

  /** The gateway listens and its outputs are safe. */
  ready(status: string): Promise<void> {
    return this.#send(['READY=1', `STATUS=${status}`]);
  }

  status(status: string): Promise<void> {
    return this.#send([`STATUS=${status}`]);
  }

  /**
   * Shutdown began: no more watchdog pings, systemd waits up to TimeoutStopSec. Callers never await
   * this before the outputs are safe (server/appliance/lifecycle.ts).
   */
  stopping(): Promise<void> {
    this.#stopping = true;
    this.stop();
    return this.#send(['STOPPING=1', 'STATUS=Stopping: outputs to safe state']);
  }

  stop(): void {
    if (this.#timer) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #ping(): void {
    const { clock, watchdogMs, liveness, logger } = this.#options;
    if (this.#stopping || watchdogMs === null) return;
    const check = liveness();
    if (check.alive) {
      this.#lastDeadReason = null;
      void this.#send(['WATCHDOG=1']);
    } else if (check.reason !== this.#lastDeadReason) {
      this.#lastDeadReason = check.reason;
      logger.warn({ reason: check.reason }, 'watchdog not fed: the sampling loop is not alive; systemd will restart the gateway');
    }
    this.#timer = clock.setTimeout(() => this.#ping(), watchdogMs / 2);
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
