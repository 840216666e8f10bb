/**
 * Whether an error is the storage refusing a write (a full SD card, a file system gone read-only after an
 * error, a card at its end): not the request's fault nor a bug, and the grower should be told which
 * (docs/storage.md, "When the storage refuses a write"). Either SQLite's answer (better-sqlite3's
 * SqliteError, told by its name and code so that no caller needs to load the driver) or the file system's
 * own, for the files kept beside the database (the revoked tokens, the certificates).
 */
const SQLITE_REFUSALS = /^SQLITE_(FULL|READONLY|IOERR)/;
const FILE_SYSTEM_REFUSALS = new Set(['ENOSPC', 'EROFS', 'EIO', 'EDQUOT']);

export function isStorageRefusal(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return error.name === 'SqliteError' ? SQLITE_REFUSALS.test(code) : FILE_SYSTEM_REFUSALS.has(code);
}
