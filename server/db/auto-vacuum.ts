import type Database from 'better-sqlite3';

/** SQLite's `PRAGMA auto_vacuum` values. */
export const AUTO_VACUUM = { none: 0, full: 1, incremental: 2 } as const;

/**
 * An existing database without incremental auto-vacuum is converted at open only up to this size: the
 * conversion is a full VACUUM, which rewrites the file (needs as much free space again) and holds the
 * start-up for about a second per few tens of MB on a Pi.
 */
export const CONVERT_AT_OPEN_MAX_BYTES = 32 * 1024 * 1024;

export type AutoVacuumOutcome = 'incremental' | 'converted' | 'left-as-is';

/**
 * Puts the database in incremental auto-vacuum mode, so pages freed by retention pruning can be given
 * back to the SD card a slice at a time (`PRAGMA incremental_vacuum(N)`), never with a blocking VACUUM
 * while the gateway runs. Must run before anything else on the connection (before WAL mode and the
 * migrations): SQLite only takes the setting on a database without tables, or through a VACUUM.
 *
 * - a new file: set, free;
 * - an existing file up to CONVERT_AT_OPEN_MAX_BYTES (databases of the first build, which did not set
 *   it): converted by one VACUUM at start, before the sampler runs and while the outputs are safe;
 * - a larger existing file: left as it is. SQLite still reuses freed pages for new rows, so the file
 *   stops growing once retention reaches its steady state; it just does not shrink. To shrink it, stop
 *   the gateway and run `sqlite3 greenhouse.db 'PRAGMA auto_vacuum = INCREMENTAL; VACUUM;'` once
 *   (docs/storage.md); from then on it is incremental.
 */
export function ensureIncrementalAutoVacuum(sqlite: Database.Database, fileBytes: number): AutoVacuumOutcome {
  const mode = sqlite.pragma('auto_vacuum', { simple: true }) as number;
  if (mode === AUTO_VACUUM.incremental) return 'incremental';
  const hasTables = (sqlite.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).pluck().get() as number) > 0;
  if (!hasTables) {
    sqlite.pragma('auto_vacuum = INCREMENTAL');
    return 'incremental';
  }
  if (fileBytes > CONVERT_AT_OPEN_MAX_BYTES) return 'left-as-is';
  sqlite.pragma('auto_vacuum = INCREMENTAL');
  sqlite.exec('VACUUM');
  return 'converted';
}
