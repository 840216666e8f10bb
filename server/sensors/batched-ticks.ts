import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { Reading, SensorType } from '../contract/reading.ts';
// A larger backlog (a restored database) is the catch-up's, in slices: a fold here stays bounded.
import { INLINE_FOLD_MAX_ROWS } from '../history/rollup-catch-up.ts';
import type { NewReading, ReadingsRepo } from './readings-repo.ts';
import { unstoredReading } from './reading-row.ts';

/** A batch is committed this often: one fsync a minute instead of one per tick (docs/performance.md, SD card). */
export const FLUSH_EVERY_MS = 60_000;
/** Rows held at most (a minute at 1 s of a dozen sensors is ~700): past this the batch is committed at once. */
export const MAX_PENDING_ROWS = 2_000;
/**
 * The rollups are folded in with the batch this often, not at every commit: each fold rewrites pages of
 * three rollup levels and the watermark, 45 % of what a commit wrote once the time index was alone
 * (docs/storage.md, SD card). History reads fold first (`flush({ foldRollups: true })`), so they never
 * miss a committed row, and a crash leaves only a watermark behind, which the catch-up folds at start.
 */
export const FOLD_EVERY_MS = 10 * 60_000;
/** Folded with the next commit however recent the last fold, so an inline fold stays small. */
export const FOLD_AT_ROWS = 1_000;

export interface BatchedTicksOptions {
  repo: Pick<ReadingsRepo, 'insertTick' | 'latest' | 'lastTakenAtMs'> & Partial<Pick<ReadingsRepo, 'foldRollups' | 'pendingRollupRows'>>;
  /** The repository's connection: a batch of ticks is one transaction on it. */
  sqlite: Database.Database;
  clock: Clock;
  logger: Logger;
  flushEveryMs?: number;
  maxPendingRows?: number;
  /** Default FOLD_EVERY_MS; only when the repo does not fold on insert (ReadingsRepo `foldOnInsert: false`). */
  foldEveryMs?: number;
  /** Told when commits start failing (the error) and when one succeeds again (null): the database refuses writes. */
  onCommitStateChange?: (error: string | null) => void;
}

interface PendingTick {
  greenhouseId: string;
  rows: readonly NewReading[];
}

/**
 * The sampler's tick insert, batched: ticks are held in memory and committed together about once a
 * minute, in one transaction (each tick still folded into the rollups as ReadingsRepo.insertTick does),
 * so an SD card sees one WAL commit and fsync a minute rather than one per tick. Alerts, the control
 * log, accounts and settings do not come through here: they still commit at once with synchronous=FULL.
 *
 * What that costs: a power cut or SIGKILL loses at most the batch not yet committed (its readings only).
 * Readers that need the newest values get them anyway: `latest` looks at the batch first, and history
 * reads call `flush()` before they query. The batch is bounded (MAX_PENDING_ROWS) and committed on stop.
 */
export class BatchedTicks {
  readonly #options: BatchedTicksOptions;
  readonly #commit: (ticks: readonly PendingTick[], fold: boolean) => void;
  #lastFoldMs: number;
  #pending: PendingTick[] = [];
  #pendingRows = 0;
  #commitError: string | null = null;
  #timer: TimerHandle | null = null;
  #committedBatches = 0;

  constructor(options: BatchedTicksOptions) {
    this.#options = options;
    // Each tick's insertTick becomes a savepoint inside this one transaction: one commit, one fsync.
    this.#commit = options.sqlite.transaction((ticks: readonly PendingTick[], fold: boolean) => {
      for (const tick of ticks) options.repo.insertTick(tick.greenhouseId, tick.rows);
      if (fold) options.repo.foldRollups?.(INLINE_FOLD_MAX_ROWS);
    });
    this.#lastFoldMs = options.clock.now();
  }

  /** Ticks waiting to be committed. */
  get pendingRows(): number {
    return this.#pendingRows;
  }

  /** Batches committed since start (tests and metrics). */
  get committedBatches(): number {
    return this.#committedBatches;
  }

  start(): void {
    this.#arm();
  }

  /** Commits what is held; called at stop, before the database closes. */
  stop(): void {
    if (this.#timer) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
    // Folded too: a clean stop leaves the rollups current, the next start has nothing to catch up.
    this.flush({ foldRollups: true });
  }

  /**
   * Holds one tick's readings for the next commit; returns them as the wire sees them. Their `_id` is
   * `<sensorType>-<takenAt ms>` (the row id exists only once committed): ids are opaque to clients.
   */
  insertTick(greenhouseId: string, rows: readonly NewReading[]): Reading[] {
    if (rows.length === 0) return [];
    this.#pending.push({ greenhouseId, rows });
    this.#pendingRows += rows.length;
    if (this.#pendingRows >= (this.#options.maxPendingRows ?? MAX_PENDING_ROWS)) this.flush();
    return rows.map((r) => unstoredReading(greenhouseId, r));
  }

  #setCommitError(error: string | null): void {
    const changed = (error === null) !== (this.#commitError === null);
    this.#commitError = error;
    if (changed) this.#options.onCommitStateChange?.(error);
  }

  /** Why the last commit failed (the database refuses writes: a full or read-only disk), or null once one succeeds. */
  commitError(): string | null {
    return this.#commitError;
  }

  /** The newest reading of each sensor type: from the batch when it holds one, else from the table. */
  latest(greenhouseId: string): Reading[] {
    const newest = new Map<SensorType, Reading>();
    for (const reading of this.#options.repo.latest(greenhouseId)) newest.set(reading.sensorType, reading);
    for (const tick of this.#pending) {
      if (tick.greenhouseId !== greenhouseId) continue;
      for (const row of tick.rows) {
        const known = newest.get(row.sensorType);
        if (!known || Date.parse(known.timestamp) <= row.takenAtMs) newest.set(row.sensorType, unstoredReading(greenhouseId, row));
      }
    }
    return [...newest.values()];
  }

  /** When the newest reading of a sensor was taken, the batch included. */
  lastTakenAtMs(greenhouseId: string, sensorType: SensorType): number | null {
    let newest = this.#options.repo.lastTakenAtMs(greenhouseId, sensorType);
    for (const tick of this.#pending) {
      if (tick.greenhouseId !== greenhouseId) continue;
      for (const row of tick.rows) if (row.sensorType === sensorType && (newest === null || row.takenAtMs > newest)) newest = row.takenAtMs;
    }
    return newest;
  }

  /**
   * Commits the held ticks now, folding the rollups with them when that is due or asked for (a history
   * read). A failed commit keeps them for the next try (up to the bound).
   */
  flush(options: { foldRollups?: boolean } = {}): void {
    const fold = this.#foldDue(options.foldRollups === true);
    if (this.#pending.length === 0) {
      if (fold) {
        this.#options.repo.foldRollups?.(INLINE_FOLD_MAX_ROWS);
        this.#lastFoldMs = this.#options.clock.now();
      }
      return;
    }
    const ticks = this.#pending;
    try {
      this.#commit(ticks, fold);
      if (fold) this.#lastFoldMs = this.#options.clock.now();
      this.#pending = [];
      this.#pendingRows = 0;
      this.#committedBatches++;
      this.#setCommitError(null);
    } catch (err) {
      this.#setCommitError((err as Error).message);
      this.#options.logger.error({ err, rows: this.#pendingRows }, 'committing a batch of readings failed; kept for the next try');
      this.#dropBeyondBound();
    }
  }

  #foldDue(asked: boolean): boolean {
    const { repo, clock } = this.#options;
    if (!repo.foldRollups || !repo.pendingRollupRows) return false;
    const unfolded = repo.pendingRollupRows() + this.#pendingRows;
    if (unfolded === 0) return false;
    // Since last fold, on either side of a wall-clock step.
    const sinceFoldMs = Math.abs(clock.now() - this.#lastFoldMs);
    return asked || unfolded >= FOLD_AT_ROWS || sinceFoldMs >= (this.#options.foldEveryMs ?? FOLD_EVERY_MS);
  }

  #arm(): void {
    this.#timer = this.#options.clock.setTimeout(() => {
      this.#timer = null;
      this.flush();
      this.#arm();
    }, this.#options.flushEveryMs ?? FLUSH_EVERY_MS);
  }

  /** A database that keeps refusing (disk full) must not grow the heap: the oldest ticks go first. */
  #dropBeyondBound(): void {
    const max = this.#options.maxPendingRows ?? MAX_PENDING_ROWS;
    while (this.#pendingRows > max && this.#pending.length > 1) this.#pendingRows -= this.#pending.shift()!.rows.length;
  }
}
