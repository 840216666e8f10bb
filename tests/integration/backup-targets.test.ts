// Backups on a disk of their own (config backup.dir) and the essential daily copy: real SQLite files,
// /dev/shm (a tmpfs, another device than the temp data dir) standing in for a USB stick.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { backupFileName } from '../../server/lifecycle/backup.ts';
import { FIRST_RUN_DELAY_MS, LIFECYCLE_TICK_MS } from '../../server/lifecycle/data-lifecycle.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { seedReadings } from '../support/seed-readings.ts';

let gateway: TestGateway | undefined;
const made: string[] = [];
afterEach(async () => {
  await gateway?.dispose();
  gateway = undefined;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let otherDisk: string;
beforeAll(() => {
  otherDisk = '/dev/shm';
  // The premise of these tests: the stand-in stick is not the data dir's disk.
  expect(statSync(otherDisk).dev).not.toBe(statSync(tmpdir()).dev);
});

function stick(): string {
  const dir = mkdtempSync(join(otherDisk, 'greenhouse-stick-'));
  made.push(dir);
  return dir;
}

async function start(clock: ManualClock, backupDir: string) {
  gateway = await startTestGateway({ backup: { dir: backupDir } }, { clock });
  const http = httpClient(gateway.url);
  const admin = await registerUser(http, { username: 'boss' });
  return { gw: gateway, http, admin };
}

async function days(gw: TestGateway, clock: ManualClock, n: number) {
  for (let hour = 0; hour < 24 * n; hour++) {
    clock.advance(LIFECYCLE_TICK_MS);
    await gw.lifecycle.idle();
  }
}

const count = (db: Database.Database, table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('backups on a disk of their own', () => {
  it('writes only there: a full backup first, then essential ones without raw readings that open and restore the rest', async () => {
    const clock = new ManualClock();
    const dir = stick();
    const { gw } = await start(clock, dir);
    seedReadings(gw.database.sqlite, [{ takenAtMs: clock.now(), temperatureC: 24.5 }]);
    gw.database.sqlite.prepare(
      `INSERT INTO control_log (device_id, greenhouse_id, action, previous_status, new_status, source, actor, reason, created_at)
       VALUES ('pump-1', 'greenhouse-001', 'ON', 'OFF', 'ON', 'MANUAL', 'boss', 'test', ?)`,
    ).run(clock.now());
    clock.advance(FIRST_RUN_DELAY_MS);
    await gw.lifecycle.idle();
    const full = backupFileName(clock.now(), 'full');
    expect(readdirSync(dir)).toEqual([full]);

    await days(gw, clock, 1);
    const essential = backupFileName(clock.now(), 'essential');
    expect(readdirSync(dir).sort()).toEqual([full, essential].sort());
    // Nothing of it on the SD card: no backups directory in the data dir at all.
    expect(existsSync(join(gw.dataDir, 'backups'))).toBe(false);

    const fullCopy = new Database(join(dir, full), { readonly: true });
    const copy = new Database(join(dir, essential), { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(count(fullCopy, 'readings')).toBe(1);
      expect(count(copy, 'readings')).toBe(0);
      expect(count(copy, 'users')).toBe(1);
      expect(count(copy, 'control_log')).toBe(1);
      expect(count(copy, 'reading_rollups')).toBe(count(gw.database.sqlite, 'reading_rollups'));
      expect(count(copy, 'reading_rollups')).toBeGreaterThan(0);
      expect(count(copy, 'devices')).toBe(count(gw.database.sqlite, 'devices'));
      // The same schema (indexes and migrations included), and ids that go on above those used.
      const schema = (db: Database.Database) => db.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY name`).all();
      expect(schema(copy)).toEqual(schema(gw.database.sqlite));
      expect(count(copy, '__drizzle_migrations')).toBe(count(gw.database.sqlite, '__drizzle_migrations'));
      const sequence = (db: Database.Database) => db.prepare(`SELECT name, seq FROM sqlite_sequence ORDER BY name`).all() as Array<{ name: string; seq: number }>;
      expect(sequence(copy).map((r) => r.name)).toEqual([...new Set(sequence(copy).map((r) => r.name))]);
      const readingsSeq = (db: Database.Database) => sequence(db).find((r) => r.name === 'readings')?.seq ?? 0;
      expect(readingsSeq(copy)).toBeGreaterThanOrEqual(readingsSeq(fullCopy));
      expect(readingsSeq(copy)).toBeGreaterThan(0);
    } finally {
      copy.close();
      fullCopy.close();
    }
    // The restored essential backup opens as a gateway's data dir.
    await gw.stop();
    const restored = mkdtempSync(join(tmpdir(), 'greenhouse-restored-'));
    made.push(restored);
    const db = new Database(join(dir, essential), { readonly: true });
    await db.backup(join(restored, 'greenhouse.db'));
    db.close();
    gateway = await startTestGateway({ dataDir: restored }, { clock });
    const http = httpClient(gateway.url);
    const login = await http.post('/api/auth/login', { username: 'boss', password: 'correct-horse-1' });
    expect(login.status).toBe(200);
  }, 120_000);

  for (const [what, target] of [
    ['missing (the stick is unplugged)', () => join(otherDisk, `greenhouse-absent-${process.pid}-${Date.now()}`)],
    ['on the SD card itself (the mount point without its stick)', () => {
      const dir = mkdtempSync(join(tmpdir(), 'greenhouse-mountpoint-'));
      made.push(dir);
      return dir;
    }],
  ] as const) {
    it(`skips the backup with an alert when the configured disk is ${what}, never writing it to the SD card; the next backup resolves it`, async () => {
      const clock = new ManualClock();
      const dir = target();
      const { gw, http, admin } = await start(clock, dir);
      clock.advance(FIRST_RUN_DELAY_MS);
      await gw.lifecycle.idle();
      expect(existsSync(join(gw.dataDir, 'backups'))).toBe(false);
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      const alerts = async () => ((await http.get('/api/alerts/greenhouse-001', admin)).body.data as Array<{ alertType: string; isResolved: boolean; message: string }>).filter((a) => a.alertType === 'BACKUP_SKIPPED');
      const raised = await alerts();
      expect(raised).toHaveLength(1);
      expect(raised[0]!.isResolved).toBe(false);
      expect(raised[0]!.message).toContain(dir);

      // Retried hourly, still one alert.
      await days(gw, clock, 0.25);
      expect(await alerts()).toHaveLength(1);
      expect(existsSync(join(gw.dataDir, 'backups'))).toBe(false);
      for (const name of readdirSync(gw.dataDir)) expect(name).not.toMatch(/^greenhouse-\d{8}/);
    }, 60_000);
  }

  it('writes as soon as the disk is back, and resolves the alert', async () => {
    const clock = new ManualClock();
    const dir = join(otherDisk, `greenhouse-late-${process.pid}-${Date.now()}`);
    const { gw, http, admin } = await start(clock, dir);
    clock.advance(FIRST_RUN_DELAY_MS);
    await gw.lifecycle.idle();
    mkdirSync(dir);
    made.push(dir);
    clock.advance(LIFECYCLE_TICK_MS);
    await gw.lifecycle.idle();
    expect(readdirSync(dir)).toEqual([backupFileName(clock.now(), 'full')]);
    const list = (await http.get('/api/alerts/greenhouse-001', admin)).body.data as Array<{ alertType: string; isResolved: boolean }>;
    expect(list.filter((a) => a.alertType === 'BACKUP_SKIPPED').map((a) => a.isResolved)).toEqual([true]);
  }, 60_000);
});
