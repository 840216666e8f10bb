import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../../scripts/build-server.mjs';
import { DATABASE_FILE } from '../../server/db/open.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { startServerProcess } from '../support/server-process.ts';

/**
 * Power-cut durability: the compiled server in its own process (dist/server/main.js, as systemd runs
 * it; it also starts in a third of the time the sources take through tsx), SIGKILLed at random moments while it
 * samples (simulator at 60x, every second) and while users switch devices, KILLS times over the same
 * data dir. After every kill: SQLite's integrity check passes, every control-log row and committed
 * reading the API acknowledged is on disk, and readings are lost only from the batch not yet committed.
 * After every restart: every device is in its safe state, and a device that was ON at the kill has a
 * 'system' entry saying it was made safe.
 */
const KILLS = 50;
const SWITCHED: Array<[deviceId: string, on: string, off: string]> = [
  ['fan-1', 'on', 'off'],
  ['light-1', 'on', 'off'],
  ['heater-1', 'on', 'off'],
  ['cooling-1', 'on', 'off'],
  ['window-1', 'open', 'close'],
];
const SAFE = new Set(['OFF', 'CLOSED']);

/** Deterministic pseudo-random delays (mulberry32), so a failing run can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Starts the server; a start cut short by a SIGTERM we did not send is retried (see below). */
async function startWithRetryOnForeignSigterm(env: Record<string, string>, context: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerProcess(env, 60_000, [SERVER_ENTRY]);
    } catch (err) {
      const message = (err as Error).message;
      if (attempt < 3 && message.includes('"signal":"SIGTERM"')) continue;
      throw new Error(`${context}: ${message}`, { cause: err });
    }
  }
}

describe('crash durability (SIGKILL during sampling and control)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-crash-'));
  const configFile = join(dataDir, '..', `${dataDir.split('/').at(-1)}-config.json`);
  writeFileSync(configFile, JSON.stringify({ simulator: { seed: 7, timeScale: 60 } }));
  beforeAll(async () => {
    await buildServerIfStale();
  }, 120_000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configFile, { force: true });
  });

  it(`loses nothing acknowledged and restarts safe, ${KILLS} kills`, { timeout: 420_000 }, async () => {
    const rand = random(20260601);
    const env = { GREENHOUSE_DATA_DIR: dataDir, GREENHOUSE_CONFIG: configFile, GREENHOUSE_HARDWARE: 'simulator' };
    const ackedControlIds = new Set<number>();
    const ackedReadingIds = new Set<number>();
    const heldReadings: Array<{ sensorType: string; takenAtMs: number }> = [];
    let token = '';
    let sensorsRoute = true;
    // Devices that were on at the last kill, checked once the next start has made them safe.
    let pendingSafeCheck: { lastLogId: number; deviceIds: string[]; context: string } | null = null;

    for (let cycle = 0; cycle < KILLS; cycle++) {
      const context = `cycle ${cycle}`;
      const server = await startWithRetryOnForeignSigterm(env, context);
      const http: HttpClient = httpClient(server.url);
      if (cycle === 0) {
        token = await registerUser(http, { username: 'crash-admin' });
        const interval = await http.put('/api/settings/default/system', { systemSettings: { updateInterval: 1 } }, token);
        expect(interval.status, JSON.stringify(interval.body)).toBe(200);
      }

      // Restarted safe: every device OFF/CLOSED, whatever it was when the process died.
      const devices = await http.get('/api/devices/default', token);
      expect(devices.status, context).toBe(200);
      for (const device of devices.body.data) expect(SAFE.has(device.status), `${context}: ${device.deviceId} is ${device.status}`).toBe(true);
      // ...and the control log says so, per device that was on when the process died. Read by id from
      // the file (WAL lets a second reader in): the simulator's 60x clock restarts from the wall clock,
      // behind the killed run's timestamps, so "latest by time" would not find it.
      if (pendingSafeCheck) {
        const reader = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
        try {
          for (const deviceId of pendingSafeCheck.deviceIds) {
            const entry = reader
              .prepare("SELECT new_status AS newStatus FROM control_log WHERE id > ? AND device_id = ? AND source = 'system'")
              .get(pendingSafeCheck.lastLogId, deviceId) as { newStatus: string } | undefined;
            expect(entry, `${pendingSafeCheck.context} -> ${context}: no 'system' safe-state entry for ${deviceId}`).toBeDefined();
            expect(SAFE.has(entry!.newStatus)).toBe(true);
          }
        } finally {
          reader.close();
        }
      }

      // Work until a random moment, then SIGKILL with requests in flight.
      const killAfterMs = 150 + Math.floor(rand() * 1200);
      let killed = false;
      const kill = new Promise<void>((resolve) =>
        setTimeout(() => {
          killed = true;
          server.child.kill('SIGKILL');
          resolve();
        }, killAfterMs),
      );
      const work = (async () => {
        while (!killed) {
          const [deviceId, on, off] = SWITCHED[Math.floor(rand() * SWITCHED.length)]!;
          const action = rand() < 0.6 ? on : off;
          try {
            const res = await http.post(`/api/devices/${deviceId}/control`, { action }, token);
            if (res.status === 200 && !killed) ackedControlIds.add(Number(res.body.controlLog._id));
            if (sensorsRoute && rand() < 0.3) {
              const latest = await http.get('/api/sensors/latest/default', token);
              if (latest.status === 404) sensorsRoute = false;
              else if (latest.status === 200) {
                // A committed reading has its row id; one still in the sampler's batch (committed about
                // once a minute, server/sensors/batched-ticks.ts) is `<sensorType>-<ms>`.
                for (const reading of latest.body.data) {
                  if (/^\d+$/.test(reading._id)) ackedReadingIds.add(Number(reading._id));
                  else heldReadings.push({ sensorType: reading.sensorType, takenAtMs: Date.parse(reading.timestamp) });
                }
              }
            }
          } catch {
            // the connection died with the process: not acknowledged
          }
        }
      })();
      await kill;
      await work;
      const exit = await server.exited;
      // SIGKILL is ours. A SIGTERM is never ours (another job on a shared machine stopping processes by
      // name): the gateway then stops gracefully (exit 0), which must keep the data just as well. An
      // exit with an error code is a crash of the gateway and fails the test.
      const expected = exit.signal === 'SIGKILL' || exit.signal === 'SIGTERM' || exit.code === 0;
      expect(expected, `${context}: the gateway exited by itself (${JSON.stringify(exit)}):\n${server.output()}`).toBe(true);

      // On disk after the power cut: intact, and nothing acknowledged is missing.
      const sqlite = new Database(join(dataDir, DATABASE_FILE));
      try {
        expect(sqlite.pragma('integrity_check', { simple: true }), context).toBe('ok');
        const controlIds = new Set((sqlite.prepare('SELECT id FROM control_log').all() as Array<{ id: number }>).map((r) => r.id));
        const missingControl = [...ackedControlIds].filter((id) => !controlIds.has(id));
        expect(missingControl, `${context}: acknowledged control-log rows lost`).toEqual([]);
        const readingIds = new Set((sqlite.prepare('SELECT id FROM readings').all() as Array<{ id: number }>).map((r) => r.id));
        const missingReadings = [...ackedReadingIds].filter((id) => !readingIds.has(id));
        expect(missingReadings, `${context}: acknowledged readings lost`).toEqual([]);
        // A kill loses at most the batch not yet committed: a held reading older than the newest stored
        // one was in a batch that committed, and must be there.
        const newestStoredMs = (sqlite.prepare('SELECT max(taken_at) FROM readings').pluck().get() as number | null) ?? 0;
        const hasReading = sqlite.prepare('SELECT 1 FROM readings WHERE sensor_type = ? AND taken_at = ?').pluck();
        const lostFromCommittedBatches = heldReadings.filter((r) => r.takenAtMs <= newestStoredMs && !hasReading.get(r.sensorType, r.takenAtMs));
        expect(lostFromCommittedBatches, `${context}: readings of a committed batch lost`).toEqual([]);
        heldReadings.length = 0;
        const onAtKill = sqlite.prepare("SELECT device_id AS deviceId FROM devices WHERE status NOT IN ('OFF', 'CLOSED')").all() as Array<{ deviceId: string }>;
        const lastLogId = (sqlite.prepare('SELECT max(id) AS id FROM control_log').get() as { id: number | null }).id ?? 0;
        sqlite.close();
        pendingSafeCheck = { lastLogId, deviceIds: onAtKill.map((d) => d.deviceId), context };
      } finally {
        if (sqlite.open) sqlite.close();
      }
    }
    expect(ackedControlIds.size).toBeGreaterThan(KILLS);
  });
});
