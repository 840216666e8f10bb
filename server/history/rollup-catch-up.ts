import type { RollupWriter } from './rollup-writer.ts';

/** A tick folds a backlog up to this size itself (a few ms); a larger one is left to the catch-up. */
export const INLINE_FOLD_MAX_ROWS = 2_000;
/** Each catch-up slice aims at this much work before giving the event loop back. */
const SLICE_TARGET_MS = 15;
const MIN_SLICE_ROWS = 500;
const MAX_SLICE_ROWS = 10_000;

/** setImmediate, not a microtask: timers, sockets and the sampler's I/O all run between two slices. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How far a running catch-up is, for a history request that cannot wait for it (history-wait.ts). */
export interface CatchUpProgress {
  /** Of the backlog found when it started, how much is folded (0-100). */
  donePct: number;
  /** At the pace of the slices so far; null until the first slice is folded. */
  leftSeconds: number | null;
}

export interface RollupCatchUpDeps {
  writer: RollupWriter;
  /**
   * Scanned a slice at a time before the folding starts, so the newest reading of each sensor is exact
   * long before the rollups are (server/sensors/newest-reading.ts); returns whether rows are left.
   */
  newest?: { scanOlderSlice(): boolean };
  log?: { info?(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Brings the rollups up to the newest readings row when they are behind by more than a tick can fold
 * (a database restored or imported with raw rows only, an upgrade from before rollups, rows written
 * by another program): slices of a few thousand rows, each its own short transaction, with the event
 * loop free in between, so sampling, rules and safety timers never wait for it.
 */
export class RollupCatchUp {
  #running: Promise<void> | null = null;
  #stopped = true;
  // Starts small and doubles while slices stay short: 2,000 rows at once are 25 ms or more on a Pi core.
  #sliceRows = MIN_SLICE_ROWS;
  /** Of the running catch-up: the backlog it found, what is left, and when its folding began. */
  #backlogRows = 0;
  #leftRows = 0;
  #foldStartedMs: number | null = null;

  constructor(private readonly deps: RollupCatchUpDeps) {}

  start(): void {
    this.#stopped = false;
    this.kick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  /** Starts catching up if the backlog is more than a tick folds by itself (no-op while running). */
  kick(): void {
    if (this.#running || this.#stopped) return;
    if (this.deps.writer.pendingRows() <= INLINE_FOLD_MAX_ROWS) return;
    this.#running = this.#run().finally(() => {
      this.#running = null;
    });
  }

  /**
   * Resolves once the backlog is small enough to fold inline (at once when it already is): a history
   * request waits here instead of scanning raw rows or answering from incomplete rollups.
   */
  async whenCurrent(): Promise<void> {
    this.kick();
    while (this.#running) await this.#running;
  }

  /** Null when no catch-up is running (history is current, or a tick folds what is left). */
  progress(): CatchUpProgress | null {
    if (!this.#running) return null;
    const foldedRows = Math.max(0, this.#backlogRows - this.#leftRows);
    const donePct = this.#backlogRows > 0 ? Math.min(100, Math.floor((foldedRows * 100) / this.#backlogRows)) : 0;
    if (this.#foldStartedMs === null || foldedRows === 0) return { donePct, leftSeconds: null };
    const rowsPerMs = foldedRows / Math.max(1, performance.now() - this.#foldStartedMs);
    return { donePct, leftSeconds: Math.ceil(this.#leftRows / rowsPerMs / 1000) };
  }

  async #run(): Promise<void> {
    const startedMs = performance.now();
    const { writer, newest, log } = this.deps;
    const backlogRows = writer.pendingRows();
    this.#backlogRows = backlogRows;
    this.#leftRows = backlogRows;
    this.#foldStartedMs = null;
    log?.info?.({ backlogRows }, 'rollups: catching up with raw readings');
    try {
      while (newest?.scanOlderSlice()) {
        if (this.#stopped) return;
        await yieldToEventLoop();
      }
      this.#foldStartedMs = performance.now();
      for (;;) {
        if (this.#stopped) return;
        const sliceStartMs = performance.now();
        const left = writer.foldPending(this.#sliceRows);
        this.#leftRows = left;
        this.#adaptSlice(performance.now() - sliceStartMs);
        if (left === 0) break;
        await yieldToEventLoop();
      }
      log?.info?.({ backlogRows, ms: Math.round(performance.now() - startedMs) }, 'rollups: caught up');
    } catch (err) {
      log?.error({ err }, 'rollups: catch-up failed; history reads fold what is left inline');
    }
  }

  /** Keeps each slice near SLICE_TARGET_MS whatever the machine (a Pi Zero or a laptop). */
  #adaptSlice(elapsedMs: number): void {
    const scaled = Math.round((this.#sliceRows * SLICE_TARGET_MS) / Math.max(1, elapsedMs));
    this.#sliceRows = Math.min(MAX_SLICE_ROWS, Math.max(MIN_SLICE_ROWS, Math.min(scaled, this.#sliceRows * 2)));
  }
}

/**
 * Folds the whole backlog (in slices, the event loop free in between), e.g. before retention deletes
 * raw rows that the rollups have not seen yet.
 */
export async function foldAllPending(writer: RollupWriter, shouldStop: () => boolean = () => false): Promise<void> {
  const catchUp = new RollupCatchUp({ writer });
  catchUp.start();
  try {
    await catchUp.whenCurrent();
  } finally {
    await catchUp.stop();
  }
  if (!shouldStop()) writer.foldPending();
}
