// Worker thread: copies the live database into `partialPath` through a connection of its own that only
// reads it, then flushes the copy. Started by writeBackup (backup.ts); answers { answer: { restarts } } or { error }.
// - `full`: everything, page by page (SQLite's online backup), flushed to the disk as it goes.
// - `essential`: every table but the raw readings' rows (their table is there, empty): accounts,
//   settings, devices, alerts, control log and rollups, a few MB instead of a few hundred.
import { closeSync, fdatasyncSync, fsyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { runAsBackgroundThread } from '../db/worker-priority.ts';
import type { OneAnswer } from '../db/worker.ts';

// Behind the main thread's sampling, rules and requests on a Pi core.
runAsBackgroundThread();

const { dbPath, partialPath, kind } = workerData as { dbPath: string; partialPath: string; kind: 'full' | 'essential' };

/** Tables whose rows an essential backup leaves out: raw readings only (the rollups keep their history). */
const ROWS_LEFT_OUT = new Set(['readings']);

/**
 * Bytes a full backup copies between two flushes of the copy. A full backup is the whole database
 * (200 MB after a year on an SD card). Copied in one piece (VACUUM INTO, then one fsync), it left that
 * much in the kernel's dirty pages for the card to write at the end, and every commit of the gateway's
 * own (alerts, the control log, the minute's readings: synchronous=FULL, on the event loop) queued
 * behind it; on the Pi-core bench that final flush was the previews window's longest hold
 * (docs/performance.md, "A full backup in steps"). Flushed every 256 kB, a commit waits for about that;
 * at the very end, for what the copy's own page cache still holds (SQLite's default, 2 MB at most).
 */
export const FULL_BACKUP_BYTES_PER_FLUSH = 256 * 1024;

/**
 * SQLite's online backup from this worker's own connection, with a read transaction held from the
 * first page to the last: the copy is one snapshot, and the backup does not start over when the
 * sampler writes (it does, from another connection, whenever a connection without a snapshot sees the
 * database change). After each step the copy's new pages are flushed (fdatasync on a descriptor of
 * our own flushes the file's pages, whoever wrote them).
 */
async function copyFull(): Promise<{ restarts: number }> {
  const source = new Database(dbPath, { readonly: true, fileMustExist: true });
  let copyFd: number | null = null;
  let restarts = 0;
  let remainingBefore = Number.POSITIVE_INFINITY;
  try {
    source.pragma('busy_timeout = 5000');
    const pageSize = source.pragma('page_size', { simple: true }) as number;
    const pagesPerStep = Math.max(1, Math.floor(FULL_BACKUP_BYTES_PER_FLUSH / pageSize));
    source.exec('BEGIN');
    source.prepare('SELECT count(*) FROM sqlite_master').pluck().get(); // the snapshot starts at the first read
    await source.backup(partialPath, {
      progress: ({ remainingPages }) => {
        // More pages to go than after the last step: SQLite started the copy over (counted, logged).
        if (remainingPages > remainingBefore) restarts++;
        remainingBefore = remainingPages;
        copyFd ??= openSync(partialPath, 'r+');
        fdatasyncSync(copyFd);
        return pagesPerStep;
      },
    });
    source.exec('COMMIT');
    return { restarts };
  } finally {
    if (copyFd !== null) closeSync(copyFd);
    source.close();
  }
}

function copyEssential(): void {
  const copy = new Database(partialPath);
  try {
    // Before the first table, as the gateway's own file (server/db/auto-vacuum.ts).
    copy.pragma('auto_vacuum = INCREMENTAL');
    copy.pragma('busy_timeout = 5000');
    // Attached with the copy's flags (read-write: SQLite has no read-only ATTACH without URI filenames,
    // which this build leaves off); only ever read here.
    copy.prepare('ATTACH DATABASE ? AS src').run(dbPath);
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    // One transaction: every read of src sees one snapshot while the sampler goes on writing.
    copy.transaction(() => {
      const objects = copy
        .prepare(`SELECT type, name, sql FROM src.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY CASE type WHEN 'table' THEN 0 ELSE 1 END, rowid`)
        .all() as Array<{ type: string; name: string; sql: string }>;
      for (const { type, name, sql } of objects.filter((o) => o.type === 'table')) {
        copy.exec(sql);
        if (type === 'table' && !ROWS_LEFT_OUT.has(name)) copy.exec(`INSERT INTO main.${quote(name)} SELECT * FROM src.${quote(name)}`);
      }
      // AUTOINCREMENT counters: ids in a restored database go on above those already used.
      const hasSequence = copy.prepare(`SELECT count(*) FROM src.sqlite_master WHERE name = 'sqlite_sequence'`).pluck().get() as number;
      // (The rows copied above made entries of their own; the source's, readings' included, replace them.)
      if (hasSequence) copy.exec(`DELETE FROM main.sqlite_sequence; INSERT INTO main.sqlite_sequence SELECT * FROM src.sqlite_sequence`);
      for (const { sql } of objects.filter((o) => o.type !== 'table')) copy.exec(sql);
    })();
    copy.exec('DETACH DATABASE src');
  } finally {
    copy.close();
  }
}

try {
  let restarts = 0;
  if (kind === 'essential') copyEssential();
  else ({ restarts } = await copyFull());
  // A restored file must open anywhere: rollback journal, not WAL (a full copy has the live file's
  // WAL flag on its first page; an essential one is in rollback mode already, said explicitly).
  const copy = new Database(partialPath);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const fd = openSync(partialPath, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  parentPort!.postMessage({ answer: { restarts } } satisfies OneAnswer<{ restarts: number }>);
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message } satisfies OneAnswer<never>);
}
