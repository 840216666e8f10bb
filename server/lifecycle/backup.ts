import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { oneAnswer, startModuleWorker } from '../db/worker.ts';
import { byCodePoint } from '../../common/code-point-order.ts';

export const BACKUPS_DIR = 'backups';
/** Essential backups kept (one a day: a week). */
export const BACKUPS_KEPT = 7;
/** Full backups kept (one a week: a fortnight of raw readings recoverable). */
export const FULL_BACKUPS_KEPT = 2;
/** A full backup (raw readings included) is taken when the newest is this old; the others are essential. */
export const FULL_BACKUP_EVERY_MS = 7 * 24 * 60 * 60_000;

/**
 * `full`: everything, page by page (the online backup). `essential`: everything but the raw readings'
 * rows (accounts, settings, devices, alerts, control log, rollups): what cannot be rebuilt, small
 * enough to copy daily.
 */
export type BackupKind = 'full' | 'essential';
const ESSENTIAL_SUFFIX = '-essential';
const BACKUP_NAME = /^greenhouse-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(-essential)?\.db$/;
/** A backup being written; never matches BACKUP_NAME, so a crash mid-copy leaves no "complete" file. */
const PARTIAL_SUFFIX = '.partial';
/** A partial copy, or the journal or WAL files SQLite keeps beside it while it is open. */
const PARTIAL_LEFTOVER = /\.partial(-journal|-wal|-shm)?$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** greenhouse-YYYYMMDD-HHMMSS.db (full) or ...-essential.db, in UTC (the appliance's clock may not know its zone). */
export function backupFileName(atMs: number, kind: BackupKind = 'full'): string {
  const d = new Date(atMs);
  const suffix = kind === 'essential' ? ESSENTIAL_SUFFIX : '';
  return `greenhouse-${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${suffix}.db`;
}

/** Which kind a backup's name says it is; null for any other file. */
export function backupKindOf(fileName: string): BackupKind | null {
  const m = BACKUP_NAME.exec(fileName);
  if (!m) return null;
  return m[7] ? 'essential' : 'full';
}

/** The time a backup was taken, from its name; null for any other file. */
export function backupTimeMs(fileName: string): number | null {
  const m = BACKUP_NAME.exec(fileName);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.slice(0, 7).map(Number);
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
}

/** Complete backups in `dir` (of one kind, or both), oldest first. */
export function listBackups(dir: string, kind?: BackupKind): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => (kind ? backupKindOf(n) === kind : BACKUP_NAME.test(n))).sort((a, b) => backupTimeMs(a)! - backupTimeMs(b)! || byCodePoint(a, b));
}

function fsyncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface WrittenBackup {
  path: string;
  /** Times the copy started over from its first page (none while the worker's snapshot holds). */
  restarts: number;
}

/**
 * Copies the live database into a temporary name on a worker thread (backup-worker.ts: its own
 * read-only connection, one consistent snapshot while the sampler keeps writing through WAL; a full
 * copy page by page and flushed as it goes, an essential one table by table), and only then renames it
 * into place. Then keeps the newest `keep` backups.
 *
 * The worker's connection holds a read transaction for the whole copy: without it, SQLite's online
 * backup from a second connection starts over from the first page whenever another connection writes,
 * which the sampler does every minute, and a large database would never finish.
 */
export async function writeBackup(dbPath: string, dir: string, atMs: number, kind: BackupKind = 'full'): Promise<WrittenBackup> {
  mkdirSync(dir, { recursive: true });
  const finalPath = join(dir, backupFileName(atMs, kind));
  const partialPath = finalPath + PARTIAL_SUFFIX;
  rmSync(partialPath, { force: true });
  let restarts: number;
  try {
    ({ restarts } = await runBackupWorker(dbPath, partialPath, kind));
    renameSync(partialPath, finalPath);
    // The rename itself must reach the disk, or a power cut can bring back the old directory entry.
    fsyncPath(dir, 'r');
  } catch (err) {
    rmSync(partialPath, { force: true });
    throw err;
  }
  pruneBackups(dir);
  return { path: finalPath, restarts };
}

function runBackupWorker(dbPath: string, partialPath: string, kind: BackupKind): Promise<{ restarts: number }> {
  return oneAnswer(startModuleWorker(import.meta.url, 'backup-worker', { dbPath, partialPath, kind }), 'backup');
}

/** Deletes all but the newest BACKUPS_KEPT essential and FULL_BACKUPS_KEPT full backups, and leftovers of interrupted ones. */
export function pruneBackups(dir: string): string[] {
  const removed: string[] = [];
  // No mkdir here: a configured backup disk that is not mounted must not grow a directory on the SD card.
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names.filter((n) => PARTIAL_LEFTOVER.test(n))) {
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  const beyondKept = (kind: BackupKind, keep: number) => {
    const complete = listBackups(dir, kind);
    return complete.slice(0, Math.max(0, complete.length - keep));
  };
  for (const name of [...beyondKept('essential', BACKUPS_KEPT), ...beyondKept('full', FULL_BACKUPS_KEPT)]) {
    // With its side files, in case someone opened it in WAL mode.
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(join(dir, name + suffix), { force: true });
    removed.push(name);
  }
  return removed;
}
