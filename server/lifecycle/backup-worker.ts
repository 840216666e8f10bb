// Worker thread: copies the live database into `partialPath` through a connection of its own that only
// reads it, then flushes the copy. Started by writeBackup (backup.ts); answers { ok } or { error }.
// - `full`: VACUUM INTO, everything.
// - `essential`: every table but the raw readings' rows (their table is there, empty): accounts,
//   settings, devices, alerts, control log and rollups, a few MB instead of a few hundred.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { runAsBackgroundThread } from '../db/worker-priority.ts';

// Behind the main thread's sampling, rules and requests on a Pi core.
runAsBackgroundThread();

const { dbPath, partialPath, kind } = workerData as { dbPath: string; partialPath: string; kind: 'full' | 'essential' };

/** Tables whose rows an essential backup leaves out: raw readings only (the rollups keep their history). */
const ROWS_LEFT_OUT = new Set(['readings']);

function copyFull(): void {
  const source = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    source.prepare('VACUUM INTO ?').run(partialPath);
  } finally {
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
  if (kind === 'essential') copyEssential();
  else copyFull();
  // The copy is in rollback-journal mode already; say so explicitly, it must open anywhere.
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
  parentPort!.postMessage({ ok: true });
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message });
}
