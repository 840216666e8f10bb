import type Database from 'better-sqlite3';
import { ROLLUP_KEEP_DAYS, ROLLUP_RESOLUTIONS_MS } from '../history/rollup-levels.ts';

/**
 * What retention prunes, and by which timestamp (epoch ms). Decision (docs/decisions.md leaves it open):
 * readings, the control log and *resolved* alerts all age out after `dataRetentionDays`; an active
 * alert is never pruned, however old, because it still needs a person.
 */
export const RETENTION_TARGETS = [
  { table: 'readings', where: 'taken_at < ?' },
  { table: 'control_log', where: 'created_at < ?' },
  { table: 'alerts', where: 'is_resolved = 1 AND resolved_at < ?' },
] as const;

export const PRUNE_BATCH_ROWS = 500;

export interface PruneResult {
  cutoffMs: number;
  deleted: Record<string, number>;
  /** Rollup buckets past their own, much longer, horizon; per resolution ('1min', '5min', '60min'). */
  rollupsDeleted?: Record<string, number>;
  /** Pages given back to the file system afterwards (incremental vacuum). */
  reclaimedPages?: number;
}

/** Lets queued I/O (a sampling tick's insert, HTTP requests) run between two batches. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export const retentionCutoffMs = (nowMs: number, retentionDays: number) => nowMs - retentionDays * 86_400_000;

/**
 * Deletes every row older than the cutoff, `batchRows` at a time, yielding between batches: one big
 * DELETE over a week of 1 Hz data would hold the write lock (and the event loop) for seconds and stall
 * the sampler. Each batch is its own short transaction.
 */
export async function pruneOlderThan(
  sqlite: Database.Database,
  cutoffMs: number,
  options: { batchRows?: number; shouldStop?: () => boolean } = {},
): Promise<PruneResult> {
  const batchRows = options.batchRows ?? PRUNE_BATCH_ROWS;
  const deleted: Record<string, number> = {};
  for (const { table, where } of RETENTION_TARGETS) {
    const statement = sqlite.prepare(
      `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT ?)`,
    );
    deleted[table] = 0;
    for (;;) {
      if (options.shouldStop?.() || !sqlite.open) return { cutoffMs, deleted };
      const { changes } = statement.run(cutoffMs, batchRows);
      deleted[table] += changes;
      if (changes < batchRows) break;
      await yieldToEventLoop();
    }
  }
  return { cutoffMs, deleted };
}

/**
 * Deletes rollup buckets older than their level's horizon (ROLLUP_KEEP_DAYS: days for the fine levels,
 * years for the hourly one), whatever `dataRetentionDays` says: history outlives raw rows. Batched like
 * the raw pruning. Returns the rows deleted per resolution.
 */
export async function pruneRollups(
  sqlite: Database.Database,
  nowMs: number,
  options: { batchRows?: number; shouldStop?: () => boolean } = {},
): Promise<Record<string, number>> {
  const batchRows = options.batchRows ?? PRUNE_BATCH_ROWS;
  const statement = sqlite.prepare(
    `DELETE FROM reading_rollups WHERE rowid IN (SELECT rowid FROM reading_rollups WHERE resolution_ms = ? AND bucket_at < ? LIMIT ?)`,
  );
  const deleted: Record<string, number> = {};
  for (const resolutionMs of ROLLUP_RESOLUTIONS_MS) {
    const cutoffMs = retentionCutoffMs(nowMs, ROLLUP_KEEP_DAYS[resolutionMs]!);
    const key = `${resolutionMs / 60_000}min`;
    deleted[key] = 0;
    for (;;) {
      if (options.shouldStop?.() || !sqlite.open) return deleted;
      const { changes } = statement.run(resolutionMs, cutoffMs, batchRows);
      deleted[key] += changes;
      if (changes < batchRows) break;
      await yieldToEventLoop();
    }
  }
  return deleted;
}
