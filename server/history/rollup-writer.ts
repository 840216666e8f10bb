import type Database from 'better-sqlite3';
import { FIELD_COLUMNS, ROLLUP_RESOLUTIONS_MS } from './rollup-levels.ts';

const aggregateColumns = FIELD_COLUMNS.flatMap((c) => [`${c}_n`, `${c}_sum`, `${c}_min`, `${c}_max`]);

// total() rather than sum(): 0.0 for a bucket without values, so the NOT NULL sum adds up with +.
const aggregatesOfRaw = FIELD_COLUMNS.flatMap((c) => [`count(${c})`, `total(${c})`, `min(${c})`, `max(${c})`]);

// SQLite's two-argument min()/max() are NULL when either side is: coalesce keeps the side that has one.
const mergeOnConflict = FIELD_COLUMNS.flatMap((c) => [
  `${c}_n = ${c}_n + excluded.${c}_n`,
  `${c}_sum = ${c}_sum + excluded.${c}_sum`,
  `${c}_min = min(coalesce(${c}_min, excluded.${c}_min), coalesce(excluded.${c}_min, ${c}_min))`,
  `${c}_max = max(coalesce(${c}_max, excluded.${c}_max), coalesce(excluded.${c}_max, ${c}_max))`,
]);

/** The finest level: a slice of raw rows is aggregated to it once, and the coarser levels from that. */
const FINEST_MS = ROLLUP_RESOLUTIONS_MS[0];

// A connection-private scratch table: the 1-minute aggregates of the slice being folded.
const SCRATCH = 'temp.rollup_slice';
const createScratch = `CREATE TEMP TABLE IF NOT EXISTS rollup_slice (bucket_at INTEGER, greenhouse_id TEXT, sensor_type TEXT, n INTEGER, ${aggregateColumns.join(', ')})`;

/** The readings rows with id in (afterId, throughId], aggregated per finest bucket into the scratch table. */
const sliceSql = `INSERT INTO ${SCRATCH} (bucket_at, greenhouse_id, sensor_type, n, ${aggregateColumns.join(', ')})
   SELECT (CAST(taken_at AS INTEGER) / ${FINEST_MS}) * ${FINEST_MS} AS bucket, greenhouse_id, sensor_type, count(*), ${aggregatesOfRaw.join(', ')}
   FROM readings WHERE id > ? AND id <= ?
   GROUP BY bucket, greenhouse_id, sensor_type`;

// Merging finest buckets into a coarser one: counts and sums add up, min of mins, max of maxes.
const aggregatesOfBuckets = FIELD_COLUMNS.flatMap((c) => [`sum(${c}_n)`, `total(${c}_sum)`, `min(${c}_min)`, `max(${c}_max)`]);

/** Adds the scratch table's aggregates into the buckets of one resolution. */
const foldSql = (resolutionMs: number) =>
  `INSERT INTO reading_rollups (resolution_ms, bucket_at, greenhouse_id, sensor_type, n, ${aggregateColumns.join(', ')})
   SELECT ${resolutionMs}, (bucket_at / ${resolutionMs}) * ${resolutionMs} AS bucket, greenhouse_id, sensor_type, sum(n), ${aggregatesOfBuckets.join(', ')}
   FROM ${SCRATCH} WHERE true
   GROUP BY bucket, greenhouse_id, sensor_type
   ON CONFLICT (resolution_ms, bucket_at, greenhouse_id, sensor_type) DO UPDATE SET n = n + excluded.n, ${mergeOnConflict.join(', ')}`;

export interface Backlog {
  /** Every readings row with id <= this is in the rollups, none above it. */
  foldedThroughId: number;
  /** The newest readings row. */
  maxId: number;
}

/**
 * Keeps `reading_rollups` in step with `readings`, from a watermark stored beside them: a tick's rows
 * are folded in the tick's own transaction, and a backlog (a restored database, rows written by
 * another program, an upgrade from before rollups) is folded in slices by `RollupCatchUp`. All state
 * is in the database, so any number of writers on the connection agree on it.
 */
export class RollupWriter {
  readonly #maxId: Database.Statement;
  readonly #watermark: Database.Statement;
  readonly #setWatermark: Database.Statement;
  readonly #foldRange: (afterId: number, throughId: number) => void;

  constructor(sqlite: Database.Database) {
    sqlite.exec(createScratch);
    const clearScratch = sqlite.prepare(`DELETE FROM ${SCRATCH}`);
    const slice = sqlite.prepare(sliceSql);
    const folds = ROLLUP_RESOLUTIONS_MS.map((r) => sqlite.prepare(foldSql(r)));
    // max(id) of a rowid table is one B-tree descent, cheap enough to check on every call.
    this.#maxId = sqlite.prepare(`SELECT coalesce(max(id), 0) AS id FROM readings`).pluck();
    this.#watermark = sqlite.prepare(`SELECT folded_through_id FROM rollup_watermark WHERE id = 1`).pluck();
    this.#setWatermark = sqlite.prepare(
      `INSERT INTO rollup_watermark (id, folded_through_id) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET folded_through_id = excluded.folded_through_id`,
    );
    // The raw rows are read once per slice (not once per level): three times the catch-up speed.
    this.#foldRange = sqlite.transaction((afterId: number, throughId: number) => {
      clearScratch.run();
      slice.run(afterId, throughId);
      for (const fold of folds) fold.run();
      clearScratch.run();
      this.#setWatermark.run(throughId);
    });
  }

  backlog(): Backlog {
    return { foldedThroughId: (this.#watermark.get() as number | undefined) ?? 0, maxId: this.#maxId.get() as number };
  }

  /** Rows written but not folded yet. */
  pendingRows(): number {
    const { foldedThroughId, maxId } = this.backlog();
    return Math.max(0, maxId - foldedThroughId);
  }

  /**
   * Folds at most `maxRows` of the backlog, oldest first, in one transaction (a savepoint inside the
   * caller's). Returns the ids still pending afterwards.
   */
  foldPending(maxRows = Number.POSITIVE_INFINITY): number {
    const { foldedThroughId, maxId } = this.backlog();
    if (maxId <= foldedThroughId) return 0;
    const throughId = Math.min(maxId, foldedThroughId + maxRows);
    this.#foldRange(foldedThroughId, throughId);
    return maxId - throughId;
  }
}
