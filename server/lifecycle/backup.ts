import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startModuleWorker } from '../db/worker.ts';

export const BACKUPS_DIR = 'backups';
export const BACKUPS_KEPT = 7;
const BACKUP_NAME = /^greenhouse-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.db$/;
/** A backup being written; never matches BACKUP_NAME, so a crash mid-copy leaves no "complete" file. */
const PARTIAL_SUFFIX = '.partial';

const pad = (n: number) => String(n).padStart(2, '0');

/** greenhouse-YYYYMMDD-HHMMSS.db in UTC (the appliance's clock may not know its zone). */
export function backupFileName(atMs: number): string {
  const d = new Date(atMs);
  return `greenhouse-${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}.db`;
}

/** The time a backup was taken, from its name; null for any other file. */
export function backupTimeMs(fileName: string): number | null {
  const m = BACKUP_NAME.exec(fileName);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
}

/** Complete backups in `dir`, oldest first. */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => BACKUP_NAME.test(n)).sort();
}

function fsyncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the live database into a temporary name on a worker thread (backup-worker.ts: its own
 * read-only connection, `VACUUM INTO`, one consistent snapshot while the sampler keeps writing through
 * WAL), and only then renames it into place. Then keeps the newest `keep` backups.
 *
 * Why not the online backup API: from a second connection it restarts from the first page whenever
 * another connection writes, which the sampler does every few seconds, so a large database might never
 * finish; from the main connection it would run on the event loop. VACUUM INTO reads one snapshot and
 * also leaves the copy compact.
 */
export async function writeBackup(dbPath: string, dataDir: string, atMs: number, keep = BACKUPS_KEPT): Promise<string> {
  const dir = join(dataDir, BACKUPS_DIR);
  mkdirSync(dir, { recursive: true });
  const finalPath = join(dir, backupFileName(atMs));
  const partialPath = finalPath + PARTIAL_SUFFIX;
  rmSync(partialPath, { force: true });
  try {
    await runBackupWorker(dbPath, partialPath);
    renameSync(partialPath, finalPath);
    // The rename itself must reach the disk, or a power cut can bring back the old directory entry.
    fsyncPath(dir, 'r');
  } catch (err) {
    rmSync(partialPath, { force: true });
    throw err;
  }
  pruneBackups(dir, keep);
  return finalPath;
}

function runBackupWorker(dbPath: string, partialPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker(import.meta.url, 'backup-worker', { dbPath, partialPath });
    let answered = false;
    worker.once('message', (message: { ok?: true; error?: string }) => {
      answered = true;
      if (message.ok) resolve();
      else reject(new Error(`backup failed: ${message.error}`));
    });
    worker.once('error', (err) => {
      answered = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`backup worker exited with code ${code}`));
    });
  });
}

/** Deletes all but the newest `keep` backups, and leftovers of interrupted ones. */
export function pruneBackups(dir: string, keep = BACKUPS_KEPT): string[] {
  const removed: string[] = [];
  mkdirSync(dir, { recursive: true });
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names.filter((n) => n.endsWith(PARTIAL_SUFFIX))) {
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  const complete = listBackups(dir);
  for (const name of complete.slice(0, Math.max(0, complete.length - keep))) {
    // With its side files, in case someone opened it in WAL mode.
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(join(dir, name + suffix), { force: true });
    removed.push(name);
  }
  return removed;
}
