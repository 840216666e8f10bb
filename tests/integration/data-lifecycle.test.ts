import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { openDatabase } from '../../server/db/open.ts';
import { BACKUPS_KEPT, FULL_BACKUPS_KEPT, backupFileName, backupKindOf, writeBackup } from '../../server/lifecycle/backup.ts';
import { FIRST_RUN_DELAY_MS, LIFECYCLE_TICK_MS } from '../../server/lifecycle/data-lifecycle.ts';
import { PRUNE_BATCH_ROWS, pruneOlderThan } from '../../server/lifecycle/retention.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { seedReadings } from '../support/seed-readings.ts';

const DAY_MS = 86_400_000;
let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.dispose();
  gateway = undefined;
});

async function start(clock: ManualClock) {
  gateway = await startTestGateway({}, { clock });
  const http = httpClient(gateway.url);
  const admin = await registerUser(http, { username: 'boss' });
  return { gw: gateway, http, admin };
}

const count = (sqlite: Database.Database, sql: string, ...args: unknown[]) =>
  (sqlite.prepare(`SELECT count(*) AS n FROM ${sql}`).get(...args) as { n: number }).n;

describe('retention pruning', () => {
  it('deletes exactly the rows older than dataRetentionDays, in batches, and keeps active alerts', async () => {
    const clock = new ManualClock();
    const { gw } = await start(clock);
    const sqlite = gw.database.sqlite;
    const cutoffMs = clock.now() - 30 * DAY_MS;
    const oldRows = PRUNE_BATCH_ROWS * 2 + 37; // more than one batch
    seedReadings(sqlite, Array.from({ length: oldRows }, (_, i) => ({ takenAtMs: cutoffMs - 1 - i * 1000, temperatureC: 20 })));
    seedReadings(sqlite, [{ takenAtMs: cutoffMs, temperatureC: 21 }, { takenAtMs: cutoffMs + 1, temperatureC: 22 }, { takenAtMs: clock.now(), temperatureC: 23 }]);
    const log = sqlite.prepare(
      `INSERT INTO control_log (device_id, greenhouse_id, action, previous_status, new_status, source, actor, reason, created_at)
       VALUES ('fan-1', 'greenhouse-001', 'toggle', 'OFF', 'ON', 'user', 'boss', 'test', ?)`,
    );
    log.run(cutoffMs - 1);
    log.run(cutoffMs + 1);
    const alert = sqlite.prepare(
      `INSERT INTO alerts (greenhouse_id, alert_type, severity, message, is_resolved, created_at, resolved_at)
       VALUES ('greenhouse-001', 'HIGH_TEMPERATURE', 'HIGH', ?, ?, ?, ?)`,
    );
    alert.run('old resolved', 1, cutoffMs - DAY_MS, cutoffMs - 1);
    alert.run('old but still active', 0, cutoffMs - DAY_MS, null);
    alert.run('resolved recently', 1, cutoffMs - DAY_MS, cutoffMs + 1);

    const result = await gw.lifecycle.pruneNow();
    expect(result?.deleted).toEqual({ readings: oldRows, control_log: 1, alerts: 1 });
    expect(sqlite.prepare('SELECT temperature_c AS t FROM readings ORDER BY taken_at').all()).toEqual([{ t: 21 }, { t: 22 }, { t: 23 }]);
    expect(count(sqlite, 'control_log WHERE created_at > ?', cutoffMs)).toBe(1);
    expect(count(sqlite, 'control_log')).toBe(1);
    expect(sqlite.prepare('SELECT message FROM alerts ORDER BY id').all()).toEqual([
      { message: 'old but still active' },
      { message: 'resolved recently' },
    ]);
  });

  it('runs when the retention setting changes, and every hour on the clock', async () => {
    const clock = new ManualClock();
    const { gw, http, admin } = await start(clock);
    const sqlite = gw.database.sqlite;
    seedReadings(sqlite, [
      { takenAtMs: clock.now() - 8 * DAY_MS },
      { takenAtMs: clock.now() - 6 * DAY_MS },
    ]);
    const res = await http.put('/api/settings/greenhouse-001/system', { systemSettings: { dataRetentionDays: 7 } }, admin);
    expect(res.status).toBe(200);
    await gw.lifecycle.idle();
    expect(count(sqlite, 'readings')).toBe(1);

    // The remaining row crosses the 7-day line after one more day: the hourly run removes it.
    clock.advance(FIRST_RUN_DELAY_MS);
    await gw.lifecycle.idle();
    expect(count(sqlite, 'readings')).toBe(1);
    for (let hour = 0; hour < 25; hour++) {
      clock.advance(LIFECYCLE_TICK_MS);
      await gw.lifecycle.idle();
    }
    expect(count(sqlite, 'readings')).toBe(0);
  });

  it('yields to the event loop between batches, so a sampling tick can write in between', async () => {
    const clock = new ManualClock();
    const { gw } = await start(clock);
    const sqlite = gw.database.sqlite;
    seedReadings(sqlite, Array.from({ length: PRUNE_BATCH_ROWS * 4 }, (_, i) => ({ takenAtMs: clock.now() - 40 * DAY_MS + i })));
    const pruning = pruneOlderThan(sqlite, clock.now() - 30 * DAY_MS);
    // One turn of the event loop later: some batches are gone, the rest waits, and a tick's insert goes through.
    await new Promise((resolve) => setImmediate(resolve));
    const remaining = count(sqlite, 'readings');
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(PRUNE_BATCH_ROWS * 4);
    expect(remaining % PRUNE_BATCH_ROWS).toBe(0);
    seedReadings(sqlite, [{ takenAtMs: clock.now(), temperatureC: 22 }]);
    const result = await pruning;
    expect(result.deleted.readings).toBe(PRUNE_BATCH_ROWS * 4);
    expect(count(sqlite, 'readings')).toBe(1);
  });

  it('a refused retention change prunes nothing', async () => {
    const clock = new ManualClock();
    const { gw, http, admin } = await start(clock);
    seedReadings(gw.database.sqlite, [{ takenAtMs: clock.now() - 2 * DAY_MS }]);
    const res = await http.put('/api/settings/greenhouse-001/system', { systemSettings: { dataRetentionDays: 0 } }, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('systemSettings.dataRetentionDays');
    await gw.lifecycle.idle();
    expect(count(gw.database.sqlite, 'readings')).toBe(1);
  });
});

describe('automatic backups', () => {
  it('writes a daily online backup that opens and passes integrity_check: a full one a week, essential ones between, the last seven and two kept', async () => {
    const clock = new ManualClock();
    const { gw } = await start(clock);
    seedReadings(gw.database.sqlite, [{ takenAtMs: clock.now(), temperatureC: 24.5 }]);
    const dir = join(gw.dataDir, 'backups');
    clock.advance(FIRST_RUN_DELAY_MS - 1);
    await gw.lifecycle.idle();

    clock.advance(1);
    await gw.lifecycle.idle();
    const first = backupFileName(clock.now());
    expect(readdirSync(dir)).toEqual([first]);
    const copy = new Database(join(dir, first), { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT temperature_c AS t FROM readings').all()).toEqual([{ t: 24.5 }]);
      expect((copy.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n).toBe(1);
    } finally {
      copy.close();
    }

    for (let hour = 0; hour < 24 * 14; hour++) {
      clock.advance(LIFECYCLE_TICK_MS);
      await gw.lifecycle.idle();
    }
    // One a day at the time of the first, for 15 days: full on days 0, 7, 14 (the newest two kept), essential on the others.
    const names = readdirSync(dir).sort();
    const dayOf = (offsetDays: number, kind: 'full' | 'essential') => backupFileName(clock.now() - (14 - offsetDays) * DAY_MS, kind);
    const essentialDays = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13];
    expect(names.filter((n) => backupKindOf(n) === 'full')).toEqual([7, 14].map((d) => dayOf(d, 'full')));
    expect(names.filter((n) => backupKindOf(n) === 'essential')).toEqual(essentialDays.slice(-BACKUPS_KEPT).map((d) => dayOf(d, 'essential')));
    expect(names).toHaveLength(BACKUPS_KEPT + FULL_BACKUPS_KEPT);
    expect(names).not.toContain(first);
    for (const name of names) expect(name).toMatch(/^greenhouse-\d{8}-\d{6}(-essential)?\.db$/);
  }, 120_000);

  it('takes none while autoBackup is off, and one as soon as it is turned on', async () => {
    const clock = new ManualClock();
    const { gw, http, admin } = await start(clock);
    const dir = join(gw.dataDir, 'backups');
    expect((await http.put('/api/settings/greenhouse-001/system', { systemSettings: { autoBackup: false } }, admin)).status).toBe(200);
    for (let hour = 0; hour < 50; hour++) {
      clock.advance(LIFECYCLE_TICK_MS);
      await gw.lifecycle.idle();
    }
    expect(readdirSync(dir)).toEqual([]);
    expect((await http.put('/api/settings/greenhouse-001/system', { systemSettings: { autoBackup: true } }, admin)).status).toBe(200);
    await gw.lifecycle.idle();
    expect(readdirSync(dir)).toEqual([backupFileName(clock.now())]);
  });

  it('removes half-written backups left by a crash at start, and never counts them', async () => {
    const clock = new ManualClock();
    const { gw } = await start(clock);
    const dir = join(gw.dataDir, 'backups');
    const dataDir = gw.dataDir;
    await gw.stop();
    for (const leftover of ['.partial', '.partial-journal', '.partial-wal', '.partial-shm']) writeFileSync(join(dir, `greenhouse-20260101-000000.db${leftover}`), 'half a file');
    gateway = await startTestGateway({ dataDir }, { clock });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('copies a full backup in steps from one snapshot while another connection keeps writing, and it finishes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-backup-'));
    const database = openDatabase(dataDir);
    try {
      const insert = database.sqlite.prepare(`INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c) VALUES ('greenhouse-001', 'DHT11', ?, ?)`);
      // About 3 MB: a dozen of the backup's 256 kB steps.
      database.sqlite.transaction(() => {
        for (let i = 0; i < 40_000; i++) insert.run(i * 1000, 20 + (i % 50) / 10);
      })();
      const rowsBefore = count(database.sqlite, 'readings');
      let next = rowsBefore;
      // Writes from another connection at every turn of the event loop as long as the copy runs (the
      // sampler's, many times over): a backup that started over after each would never finish.
      let copying = true;
      const write = () => {
        if (!copying) return;
        insert.run(next++ * 1000, 21);
        setImmediate(write);
      };
      setImmediate(write);
      const dir = join(dataDir, 'backups');
      let written: Awaited<ReturnType<typeof writeBackup>>;
      try {
        written = await writeBackup(database.sqlite.name, dir, Date.UTC(2026, 10, 28), 'full');
      } finally {
        copying = false;
      }
      expect(written.restarts).toBe(0);
      const rowsAfter = count(database.sqlite, 'readings');
      expect(rowsAfter).toBeGreaterThan(rowsBefore);
      expect(readdirSync(dir)).toEqual([backupFileName(Date.UTC(2026, 10, 28), 'full')]);
      const copy = new Database(written.path, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
        const copied = count(copy, 'readings');
        expect(copied).toBeGreaterThanOrEqual(rowsBefore);
        expect(copied).toBeLessThanOrEqual(rowsAfter);
        // One snapshot: its rows are exactly the first `copied` ones written.
        expect(copy.prepare('SELECT max(taken_at) AS t FROM readings').get()).toEqual({ t: (copied - 1) * 1000 });
      } finally {
        copy.close();
      }
    } finally {
      database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
