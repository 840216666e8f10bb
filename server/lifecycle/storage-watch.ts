import { statfs as statfsOf } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { EventBus } from '../events/bus.ts';

/** How often the data disk's free space is read: a card fills over hours, and the read is one system call. */
export const STORAGE_CHECK_EVERY_MS = 5 * 60_000;

/** What `statfs` answers that the watch reads (node:fs/promises; tests pass their own). */
export type Statfs = (dir: string) => Promise<{ bavail: number; blocks: number; bsize: number }>;

export interface StorageWatchDeps {
  dir: string;
  clock: Clock;
  bus: EventBus;
  logger: Logger;
  statfs?: Statfs;
}

/**
 * Reads the free space of the disk the database is on (an SD card on the Pi) at start and every five
 * minutes, and publishes it (`storageChecked`): the alerts feature warns while there is still room to
 * store the warning (server/alerts/storage-alert.ts; docs/storage.md, "When the storage refuses a write").
 */
export class StorageWatch {
  #timer: TimerHandle | null = null;
  #running = false;

  constructor(private readonly deps: StorageWatchDeps) {}

  start(): void {
    this.#running = true;
    void this.check();
  }

  stop(): void {
    this.#running = false;
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Reads the free space now and schedules the next read. */
  async check(): Promise<void> {
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    try {
      const stats = await (this.deps.statfs ?? statfsOf)(this.deps.dir);
      // Blocks free to an unprivileged process: the gateway's user does not get root's reserve.
      if (this.#running) this.deps.bus.emit('storageChecked', { dir: this.deps.dir, freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize });
    } catch (err) {
      this.deps.logger.warn({ err, dir: this.deps.dir }, 'could not read the free space of the data disk');
    }
    if (this.#running) this.#timer = this.deps.clock.setTimeout(() => void this.check(), STORAGE_CHECK_EVERY_MS);
  }
}
