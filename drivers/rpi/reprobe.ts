import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { Log } from '../options.ts';
import { SensorReadError, type DriverStatus } from '../types.ts';

export interface ReprobeOptions<T> {
  /** The driver's name in status() (health). */
  name: string;
  /** Opens the device and proves it answers (a transfer); throws when it does not. */
  open: () => Promise<T>;
  /** Releases what open() took (the bus file descriptor), so the next probe starts clean. */
  close: (device: T) => Promise<void>;
  clock: Clock;
  log: Log;
  /** The first retry waits this long, each further one twice as long up to maxDelayMs. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** After this many read errors in a row the device counts as gone: closed and probed again. */
  lossAfterErrors?: number;
}

export const REPROBE_FIRST_DELAY_MS = 5_000;
export const REPROBE_MAX_DELAY_MS = 5 * 60_000;
export const LOSS_AFTER_ERRORS = 3;

/**
 * A sensor chip on a bus (I2C, 1-Wire) that may be missing at boot or go away later (a loose cable, a
 * brown-out of the sensor's supply, a bus held by a confused slave): probed again with back-off until it
 * answers, then joined without a restart (docs/hardware.md, "Hardware that comes back"). Bus errors are
 * counted for health. A device that stops answering is closed and probed again, which reopens the bus:
 * what i2c-bus allows from user space (a slave holding SDA low needs the kernel's bus recovery, see the
 * doc).
 */
export class Reprobe<T> {
  readonly #options: ReprobeOptions<T>;
  #device: T | null = null;
  #lastError: string | null = null;
  #attempts = 0;
  #nextDelayMs: number;
  #nextProbeAtMs: number | null = null;
  #timer: TimerHandle | null = null;
  #errorsInARow = 0;
  #busErrors = 0;
  #closed = false;
  #probing: Promise<void> | null = null;

  constructor(options: ReprobeOptions<T>) {
    this.#options = options;
    this.#nextDelayMs = options.firstDelayMs ?? REPROBE_FIRST_DELAY_MS;
  }

  /** The first probe, awaited at start so a present chip is available from the first tick. */
  async start(): Promise<void> {
    await this.#probe();
  }

  /** The device while it answers, else null (a probe is scheduled). */
  get device(): T | null {
    return this.#device;
  }

  /** Reads through the device; a missing device or a failed read is a SensorReadError naming the sensor. */
  async read<R>(sensor: string, read: (device: T) => Promise<R>): Promise<R> {
    const device = this.#device;
    if (!device) throw new SensorReadError(sensor, `${this.#options.name} not found (${this.#lastError ?? 'not probed yet'}); ${this.#whenNext()}`);
    try {
      const value = await read(device);
      this.#errorsInARow = 0;
      return value;
    } catch (err) {
      this.#busErrors += 1;
      this.#errorsInARow += 1;
      if (this.#errorsInARow >= (this.#options.lossAfterErrors ?? LOSS_AFTER_ERRORS) && this.#device === device) this.#lose(device, err);
      throw err;
    }
  }

  status(): DriverStatus {
    const { name } = this.#options;
    if (this.#device) return { name, available: true, reason: null, busErrors: this.#busErrors };
    return { name, available: false, reason: `${this.#lastError ?? 'not probed yet'}; ${this.#whenNext()}`, busErrors: this.#busErrors };
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
    await this.#probing;
    const device = this.#device;
    this.#device = null;
    if (device) await this.#options.close(device);
  }

  #whenNext(): string {
    if (this.#nextProbeAtMs === null) return 'probing';
    const inSeconds = Math.max(0, Math.round((this.#nextProbeAtMs - this.#options.clock.now()) / 1000));
    return `probed again in ${inSeconds} s (attempt ${this.#attempts + 1})`;
  }

  #probe(): Promise<void> {
    this.#probing ??= (async () => {
      this.#attempts += 1;
      this.#nextProbeAtMs = null;
      try {
        const device = await this.#options.open();
        if (this.#closed) {
          await this.#options.close(device);
          return;
        }
        this.#device = device;
        this.#errorsInARow = 0;
        this.#nextDelayMs = this.#options.firstDelayMs ?? REPROBE_FIRST_DELAY_MS;
        if (this.#attempts > 1) this.#options.log('info', `${this.#options.name} answers again (attempt ${this.#attempts}): joined`);
        this.#attempts = 0;
        this.#lastError = null;
      } catch (err) {
        this.#lastError = err instanceof Error ? err.message : String(err);
        if (this.#attempts === 1) this.#options.log('warn', `${this.#options.name} not found: ${this.#lastError}; probing again with back-off`);
        this.#scheduleProbe();
      }
    })().finally(() => {
      this.#probing = null;
    });
    return this.#probing;
  }

  #scheduleProbe(): void {
    if (this.#closed) return;
    const delayMs = this.#nextDelayMs;
    this.#nextDelayMs = Math.min(delayMs * 2, this.#options.maxDelayMs ?? REPROBE_MAX_DELAY_MS);
    this.#nextProbeAtMs = this.#options.clock.now() + delayMs;
    this.#timer = this.#options.clock.setTimeout(() => {
      this.#timer = null;
      void this.#probe();
    }, delayMs);
  }

  #lose(device: T, err: unknown): void {
    this.#device = null;
    this.#lastError = `stopped answering after ${this.#errorsInARow} errors in a row: ${err instanceof Error ? err.message : String(err)}`;
    this.#options.log('warn', `${this.#options.name} ${this.#lastError}; reopening the bus and probing again`);
    this.#errorsInARow = 0;
    this.#attempts = 0;
    void this.#options.close(device).catch(() => {}).then(() => this.#scheduleProbe());
  }
}
