import { describe, expect, it } from 'vitest';
import { isStorageRefusal } from '../../../../server/db/storage-refusal.ts';

function withCode(name: string, code: string): Error {
  const error = new Error(`${code}: refused`);
  error.name = name;
  return Object.assign(error, { code });
}

describe('isStorageRefusal', () => {
  it("tells SQLite's full, read-only and I/O errors from its others", () => {
    expect(isStorageRefusal(withCode('SqliteError', 'SQLITE_FULL'))).toBe(true);
    expect(isStorageRefusal(withCode('SqliteError', 'SQLITE_READONLY'))).toBe(true);
    expect(isStorageRefusal(withCode('SqliteError', 'SQLITE_IOERR_WRITE'))).toBe(true);
    expect(isStorageRefusal(withCode('SqliteError', 'SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(isStorageRefusal(withCode('SqliteError', 'SQLITE_BUSY'))).toBe(false);
  });

  it("tells the file system's refusals from a caller's mistakes", () => {
    for (const code of ['ENOSPC', 'EROFS', 'EIO', 'EDQUOT']) expect(isStorageRefusal(withCode('Error', code))).toBe(true);
    for (const code of ['ENOENT', 'EACCES', 'EISDIR']) expect(isStorageRefusal(withCode('Error', code))).toBe(false);
  });

  it('is false for anything without a code', () => {
    expect(isStorageRefusal(new Error('SQLITE_FULL'))).toBe(false);
    expect(isStorageRefusal({ code: 'ENOSPC' })).toBe(false);
    expect(isStorageRefusal(null)).toBe(false);
  });
});
