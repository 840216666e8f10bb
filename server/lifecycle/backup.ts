import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

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
 * Copies the live database with SQLite's online backup API (consistent while the sampler keeps
 * writing; better-sqlite3 copies in steps and yields between them) into a temporary name, flushes it,
 * and only then renames it into place. Then keeps the newest `keep` backups.
 */
export async function writeBackup(sqlite: Database.Database, dataDir: string, atMs: number, keep = BACKUPS_KEPT): Promise<string> {
  const dir = join(dataDir, BACKUPS_DIR);
  mkdirSync(dir, { recursive: true });
  const finalPath = join(dir, backupFileName(atMs));
  const partialPath = finalPath + PARTIAL_SUFFIX;
  rmSync(partialPath, { force: true });
  try {
    await sqlite.backup(partialPath);
    // The copy inherits WAL mode; a backup should be one self-contained file that opens anywhere.
    const copy = new Database(partialPath);
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    fsyncPath(partialPath, 'r+');
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
