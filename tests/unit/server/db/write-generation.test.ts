import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { untilWritten, untilWrittenByKey, WriteGeneration } from '../../../../server/db/write-generation.ts';

describe('WriteGeneration (a read kept until the database may have changed)', () => {
  let dir: string;
  let sqlite: Database.Database;
  let other: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'write-generation-'));
    sqlite = new Database(join(dir, 'test.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
    sqlite.prepare("INSERT INTO t VALUES ('a', 1), ('b', 2)").run();
    other = new Database(join(dir, 'test.db'));
  });

  afterEach(() => {
    other.close();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function countedRead() {
    let reads = 0;
    const read = untilWritten(new WriteGeneration(sqlite), () => {
      reads++;
      return sqlite.prepare('SELECT sum(v) AS total FROM t').get() as { total: number };
    });
    return { read, reads: () => reads };
  }

  it('answers from memory while nothing is written', () => {
    const { read, reads } = countedRead();
    expect(read().total).toBe(3);
    expect(read().total).toBe(3);
    sqlite.prepare('SELECT * FROM t').all();
    expect(read().total).toBe(3);
    expect(reads()).toBe(1);
  });

  it('reads again after a write on its own connection, to any table', () => {
    const { read, reads } = countedRead();
    read();
    sqlite.prepare("UPDATE t SET v = 10 WHERE k = 'a'").run();
    expect(read().total).toBe(12);
    sqlite.exec('CREATE TABLE u (x)');
    sqlite.prepare('INSERT INTO u VALUES (1)').run();
    expect(read().total).toBe(12);
    expect(reads()).toBe(3);
  });

  it('reads again after another connection commits', () => {
    const { read } = countedRead();
    expect(read().total).toBe(3);
    other.prepare("UPDATE t SET v = 5 WHERE k = 'b'").run();
    expect(read().total).toBe(6);
  });

  it('keeps nothing read inside a transaction: it may be rolled back', () => {
    const { read } = countedRead();
    expect(read().total).toBe(3);
    const rolledBack = sqlite.transaction(() => {
      sqlite.prepare("UPDATE t SET v = 100 WHERE k = 'a'").run();
      expect(read().total).toBe(102);
      throw new Error('roll back');
    });
    expect(() => rolledBack()).toThrow('roll back');
    expect(read().total).toBe(3);
  });

  it('per key: every key is read once, and all are read again after a write', () => {
    const keys: string[] = [];
    const value = untilWrittenByKey(new WriteGeneration(sqlite), (k: string) => {
      keys.push(k);
      return (sqlite.prepare('SELECT v FROM t WHERE k = ?').get(k) as { v: number } | undefined)?.v ?? null;
    });
    expect([value('a'), value('b'), value('a'), value('zz'), value('zz')]).toEqual([1, 2, 1, null, null]);
    expect(keys).toEqual(['a', 'b', 'zz']);
    sqlite.prepare("INSERT INTO t VALUES ('zz', 7)").run();
    expect([value('zz'), value('a')]).toEqual([7, 1]);
    expect(keys).toEqual(['a', 'b', 'zz', 'zz', 'a']);
  });
});
