import type Database from 'better-sqlite3';
import { AUTO_VACUUM } from '../db/auto-vacuum.ts';
import { yieldToEventLoop } from './retention.ts';

/** Pages given back per step: 1 MiB at SQLite's default 4 KiB page, a few ms of I/O even on an SD card. */
export const VACUUM_STEP_PAGES = 256;

/**
 * Returns the pages freed by pruning to the file system, a step at a time with the event loop free in
 * between, so the SD card's space comes back without a blocking VACUUM. Only for a database in
 * incremental auto-vacuum mode (server/db/auto-vacuum.ts); otherwise the free pages are kept for reuse
 * and 0 is returned. Returns the pages released.
 */
export async function reclaimFreePages(sqlite: Database.Database, options: { shouldStop?: () => boolean } = {}): Promise<number> {
  if (sqlite.pragma('auto_vacuum', { simple: true }) !== AUTO_VACUUM.incremental) return 0;
  const freePages = () => sqlite.pragma('freelist_count', { simple: true }) as number;
  let released = 0;
  for (let before = freePages(); before > 0; before = freePages()) {
    if (options.shouldStop?.() || !sqlite.open) break;
    sqlite.pragma(`incremental_vacuum(${VACUUM_STEP_PAGES})`);
    const after = freePages();
    released += before - after;
    if (after >= before) break; // nothing more it can release (e.g. a reader holds the old pages)
    await yieldToEventLoop();
  }
  return released;
}
