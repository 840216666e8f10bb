import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale } from '../../scripts/build-server.mjs';
import { DATABASE_FILE } from '../../server/db/open.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { bindDatagramReceiver, type DatagramReceiver } from '../support/notify-socket.ts';
import { startServerProcess } from '../support/server-process.ts';

/** Debian's libfaketime (package faketime), for this machine's architecture. */
function libfaketime(): string {
  for (const dir of readdirSync('/usr/lib')) {
    const path = join('/usr/lib', dir, 'faketime', 'libfaketime.so.1');
    if (existsSync(path)) return path;
  }
  throw new Error('libfaketime not found: apt-get install faketime (.ci/run installs it)');
}

const pings = (receiver: DatagramReceiver) => receiver.messages.filter((m) => m === 'WATCHDOG=1\n').length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The compiled gateway (the unit's ExecStart) with its wall clock stepped by libfaketime while it runs,
 * monotonic time untouched (DONT_FAKE_MONOTONIC), as NTP steps a Pi that booted without a real-time
 * clock. The watchdog (a ping every second here) must keep coming through a step forward and back, at
 * the default interval and at 60 s (where a liveness check on wall time used to starve it for 45 s),
 * and the readings table must never go back in time.
 */
describe.each([
  { name: 'the default interval (5 s)', intervalSeconds: null },
  { name: 'a 60 s interval', intervalSeconds: 60 },
])('the compiled gateway, wall clock stepped by libfaketime, at $name', ({ intervalSeconds }) => {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-faketime-'));
  const timeFile = join(dir, 'faketime');
  let receiver: DatagramReceiver;

  beforeAll(async () => {
    await buildServerIfStale();
    receiver = await bindDatagramReceiver(join(dir, 'notify.sock'));
  }, 120_000);
  afterAll(() => {
    receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('+3 h then -3 h: watchdog pings never stop, the step is in health, readings never go back in time', async () => {
    writeFileSync(timeFile, '+0\n');
    const dataDir = join(dir, 'data');
    const server = await startServerProcess(
      {
        GREENHOUSE_DATA_DIR: dataDir,
        NOTIFY_SOCKET: receiver.path,
        WATCHDOG_USEC: '2000000',
        LD_PRELOAD: libfaketime(),
        FAKETIME_TIMESTAMP_FILE: timeFile,
        FAKETIME_NO_CACHE: '1',
        DONT_FAKE_MONOTONIC: '1',
      },
      60_000,
      ['dist/server/main.js'],
    );
    try {
      const http = httpClient(server.url);
      // Health names the clock's steps to signed-in accounts only (anonymous callers get ok/degraded).
      const admin = await registerUser(http, { username: 'clock-admin' });
      if (intervalSeconds !== null) {
        const res = await http.put('/api/settings/default/system', { systemSettings: { updateInterval: intervalSeconds } }, admin);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      await receiver.waitFor((messages) => messages.some((m) => m.startsWith('READY=1')) && pings(receiver) >= 2);

      for (const step of ['+3h', '-3h']) {
        writeFileSync(timeFile, `${step}\n`);
        const before = pings(receiver);
        // 7 s: a ping a second; before the fix none came for up to a whole interval after +3 h.
        await sleep(7000);
        expect(pings(receiver) - before, `pings after ${step}\n${server.output()}`).toBeGreaterThanOrEqual(5);
      }
      const health = (await http.get('/api/health', admin)).body.data;
      expect(health.clock.steps).toBeGreaterThanOrEqual(2);
      expect(Math.round(health.clock.lastStep.stepSeconds / 3600)).toBe(-6);
      expect(server.output()).not.toContain('watchdog not fed');

      // Stopped first: readings are committed about once a minute and at stop (server/sensors/batched-ticks.ts).
      server.child.kill('SIGTERM');
      expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
      const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
      try {
        for (const { sensor_type: sensorType } of db.prepare('SELECT DISTINCT sensor_type FROM readings').all() as Array<{ sensor_type: string }>) {
          const stamps = (db.prepare('SELECT taken_at AS at FROM readings WHERE sensor_type = ? ORDER BY id').all(sensorType) as Array<{ at: number }>).map((r) => r.at);
          expect(stamps, sensorType).toEqual([...stamps].sort((a, b) => a - b));
        }
        const newest = (db.prepare('SELECT max(taken_at) AS m FROM readings').get() as { m: number }).m;
        // Rows from the +3 h phase exist only at 5 s; none from the -3 h phase (they would be in the past).
        expect(newest).toBeLessThan(Date.now() + 3 * 3_600_000 + 60_000);
      } finally {
        db.close();
      }
    } finally {
      server.child.kill('SIGTERM');
      const exit = await server.exited;
      expect(exit, server.output()).toEqual({ code: 0, signal: null });
    }
  }, 90_000);
});
