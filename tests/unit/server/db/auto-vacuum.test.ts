import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTO_VACUUM, CONVERT_AT_OPEN_MAX_BYTES, ensureIncrementalAutoVacuum } from '../../../../server/db/auto-vacuum.ts';
import { DATABASE_FILE, openDatabase } from '../../../../server/db/open.ts';
import { reclaimFreePages } from '../../../../server/lifecycle/vacuum.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vacuum-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A database of the first build: tables created without auto_vacuum. */
function legacyDatabase(path: string) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x TEXT)');
  db.prepare('INSERT INTO t VALUES (?)').run('kept');
  db.close();
}

describe('incremental auto-vacuum', () => {
  it('is on for a new database, and pages freed by pruning go back to the file system in steps', async () => {
    const database = openDatabase(dir);
    expect(database.autoVacuum).toBe('incremental');
    const { sqlite } = database;
    expect(sqlite.pragma('auto_vacuum', { simple: true })).toBe(AUTO_VACUUM.incremental);
    const insert = sqlite.prepare(`INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c) VALUES ('g', 'DHT11', ?, 20)`);
    sqlite.transaction(() => {
      for (let i = 0; i < 50_000; i++) insert.run(i);
    })();
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const fullBytes = statSync(database.path).size;
    sqlite.exec('DELETE FROM readings');
    expect(sqlite.pragma('freelist_count', { simple: true })).toBeGreaterThan(256); // more than one step

    const released = await reclaimFreePages(sqlite);
    expect(released).toBeGreaterThan(256);
    expect(sqlite.pragma('freelist_count', { simple: true })).toBe(0);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    expect(statSync(database.path).size).toBeLessThan(fullBytes / 2);
    database.close();
  });

  it('converts a small database of the first build at open, keeping its rows', () => {
    legacyDatabase(join(dir, DATABASE_FILE));
    const database = openDatabase(dir);
    expect(database.autoVacuum).toBe('converted');
    expect(database.sqlite.pragma('auto_vacuum', { simple: true })).toBe(AUTO_VACUUM.incremental);
    expect(database.sqlite.prepare('SELECT x FROM t').pluck().all()).toEqual(['kept']);
    database.close();
    expect(openDatabase(dir).autoVacuum).toBe('incremental');
  });

  it('leaves a large one as it is (a VACUUM would hold the start-up), and reclaiming is then a no-op', async () => {
    const path = join(dir, 'large.db');
    legacyDatabase(path);
    const db = new Database(path);
    expect(ensureIncrementalAutoVacuum(db, CONVERT_AT_OPEN_MAX_BYTES + 1)).toBe('left-as-is');
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(AUTO_VACUUM.none);
    expect(await reclaimFreePages(db)).toBe(0);
    db.close();
  });
});
