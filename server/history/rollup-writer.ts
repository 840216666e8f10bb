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

/** Folds the readings rows with id in (afterId, throughId] into the buckets of one resolution. */
const foldSql = (resolutionMs: number) =>
  `INSERT INTO reading_rollups (resolution_ms, bucket_at, greenhouse_id, sensor_type, n, ${aggregateColumns.join(', ')})
   SELECT ${resolutionMs}, (CAST(taken_at AS INTEGER) / ${resolutionMs}) * ${resolutionMs} AS bucket, greenhouse_id, sensor_type, count(*), ${aggregatesOfRaw.join(', ')}
   FROM readings WHERE id > ? AND id <= ?
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
  readonly #folds: Database.Statement[];
  readonly #maxId: Database.Statement;
  readonly #watermark: Database.Statement;
  readonly #setWatermark: Database.Statement;
  readonly #foldRange: (afterId: number, throughId: number) => void;

  constructor(sqlite: Database.Database) {
    this.#folds = ROLLUP_RESOLUTIONS_MS.map((r) => sqlite.prepare(foldSql(r)));
    // max(id) of a rowid table is one B-tree descent, cheap enough to check on every call.
    this.#maxId = sqlite.prepare(`SELECT coalesce(max(id), 0) AS id FROM readings`).pluck();
    this.#watermark = sqlite.prepare(`SELECT folded_through_id FROM rollup_watermark WHERE id = 1`).pluck();
    this.#setWatermark = sqlite.prepare(
      `INSERT INTO rollup_watermark (id, folded_through_id) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET folded_through_id = excluded.folded_through_id`,
    );
    this.#foldRange = sqlite.transaction((afterId: number, throughId: number) => {
      for (const fold of this.#folds) fold.run(afterId, throughId);
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
