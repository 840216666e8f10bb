// Worker thread: copies the live database into `partialPath` with VACUUM INTO through its own read-only
// connection, then flushes the copy. Started by writeBackup (backup.ts); answers { ok } or { error }.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { runAsBackgroundThread } from '../db/worker-priority.ts';

// Behind the main thread's sampling, rules and requests on a Pi core.
runAsBackgroundThread();

const { dbPath, partialPath } = workerData as { dbPath: string; partialPath: string };

try {
  const source = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    source.prepare('VACUUM INTO ?').run(partialPath);
  } finally {
    source.close();
  }
  // VACUUM INTO writes a rollback-journal file already; say so explicitly, the copy must open anywhere.
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
