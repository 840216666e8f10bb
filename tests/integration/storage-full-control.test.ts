import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { snapshotOf } from '../support/snapshots.ts';
import { createGateway } from '../../server/gateway.ts';
import { REVOKED_TOKENS_FILE } from '../../server/auth/revoked-tokens.ts';
import { DATABASE_FILE } from '../../server/db/open.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { rememberDataDir } from '../support/setup-code.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const GH = 'greenhouse-001';
const FAN = 'relay-2';
const LIGHT = 'relay-3';
const PUMP = 'relay-1';

/**
 * A storage that refuses writes (a full SD card): the real gateway over HTTP, its real SQLite connection
 * made to refuse every write, as a full or read-only SD card does. What is
 * checked is the hardware (fake outputs) against what the gateway says (docs/storage.md, "When the
 * storage refuses a write").
 */
describe('control while the storage refuses every write', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let outputs: Map<string, FakeOutput>;
  const clock = new ManualClock(Date.parse('2026-06-01T08:00:00Z'));
  const device = async (deviceId: string) => (await http.get(`/api/devices/${GH}`, admin)).body.data.find((d: any) => d.deviceId === deviceId);
  const control = (deviceId: string, action: string) => http.post(`/api/devices/${deviceId}/control`, { action }, admin);

  /**
   * Every write refused, as on a card gone read-only after an error (ext4 remounts read-only) or full:
   * SQLite's own read-only switch on the gateway's connection, so each write fails in SQLite itself.
   */
  function refuseWrites(): void {
    gw.database.sqlite.pragma('query_only = 1');
  }
  function takeWrites(): void {
    gw.database.sqlite.pragma('query_only = 0');
  }
  const REFUSED = 'attempt to write a readonly database';

  beforeAll(async () => {
    outputs = fakeOutputs(defaultOutputs);
    gw = await startTestGateway({}, { hardware: fakeHardware(outputs), clock });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'boss' });
  });
  afterAll(() => gw?.dispose());

  it('a switch off still switches off, says it was not recorded, and every reader sees the device off', async () => {
    expect((await control('fan-1', 'on')).status).toBe(200);
    expect(outputs.get(FAN)!.on).toBe(true);
    refuseWrites();

    const off = await control('fan-1', 'off');
    expect(off.status).toBe(503);
    expect(off.body.message).toBe(`Ventilation Fan is off, but the switch could not be recorded: ${REFUSED}`);
    expect(outputs.get(FAN)!.on).toBe(false);
    const fan = await device('fan-1');
    expect(fan.status).toBe('OFF');
    // The card says why it is off, and that it was not recorded.
    expect(fan.stateReason).toMatchObject({ source: 'user', text: `Ventilation Fan turned off (not recorded: ${REFUSED})` });
    // Asked again, nothing changes and nothing more is written.
    expect((await control('fan-1', 'off')).status).toBe(503);
    expect(outputs.get(FAN)!.on).toBe(false);
    takeWrites();
  });

  it('a switch on stands, held in memory, and the run limits watch it as on', async () => {
    refuseWrites();
    const on = await control('pump-1', 'on');
    expect(on.status).toBe(503);
    expect(on.body.message).toBe(`Irrigation Pump is on, but the switch could not be recorded: ${REFUSED}`);
    expect(outputs.get(PUMP)!.on).toBe(true);
    expect((await device('pump-1')).status).toBe('ON');
    // Its run limit switches it off on time, from memory (nothing of this run is in the database).
    const { pumpMaxRunSeconds } = (await http.get(`/api/settings/${GH}`, admin)).body.data.deviceSettings;
    clock.advance(pumpMaxRunSeconds * 1000 + 1000);
    await expect.poll(() => outputs.get(PUMP)!.on).toBe(false);
    expect((await device('pump-1')).status).toBe('OFF');
    takeWrites();
  });

  it('Turn Off All switches every device off while nothing can be written, and says what was not recorded', async () => {
    expect((await control('fan-1', 'on')).status).toBe(200);
    expect((await control('light-1', 'on')).status).toBe(200);
    refuseWrites();
    const all = await http.post(`/api/devices/actions/turn-off-all/${GH}`, {}, admin);
    expect(all.status).toBe(503);
    expect(all.body.message).toMatch(/^Turn Off All: 2 turned off; /);
    expect(outputs.get(FAN)!.on).toBe(false);
    expect(outputs.get(LIGHT)!.on).toBe(false);
    expect((await device('fan-1')).status).toBe('OFF');
    expect((await device('light-1')).status).toBe('OFF');
    takeWrites();
  });

  it('Turn Off All keeps a device in auto mode off, its auto mode held off in memory when it cannot be written', async () => {
    const tick = () => {
      clock.advance(5000);
      gw.bus.emit('sampleTaken', { greenhouseId: GH, readings: [], snapshot: snapshotOf({}, clock.now()) });
      clock.advance(1000);
    };
    const automation = { autoMode: true, automationRules: { schedule: { from: '00:00', to: '23:59' } } };
    expect((await http.post('/api/devices/light-1/automation', automation, admin)).status).toBe(200);
    // Past any minimum off time of the earlier tests' switches.
    clock.advance(10 * 60_000);
    tick();
    await expect.poll(() => outputs.get(LIGHT)!.on).toBe(true);

    refuseWrites();
    const all = await http.post(`/api/devices/actions/turn-off-all/${GH}`, {}, admin);
    expect(all.status).toBe(503);
    expect(all.body.message).toContain(`LED Grow Light: auto mode off, but not recorded (${REFUSED})`);
    expect(outputs.get(LIGHT)!.on).toBe(false);
    // Its schedule still says on; the next ticks, past the minimum off time, leave it off.
    clock.advance(10 * 60_000);
    tick();
    tick();
    // An evaluation that switched it on would have within milliseconds (it did above); give it ample time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outputs.get(LIGHT)!.on).toBe(false);
    expect(await device('light-1')).toMatchObject({ status: 'OFF', autoMode: false });
    takeWrites();
    // A setting written again is the truth again.
    expect((await http.post('/api/devices/light-1/automation', { autoMode: false }, admin)).body.data).toMatchObject({ autoMode: false });
  });

  it('a request that must write (a profile change) is a 503 that says the storage refuses writes, not a server error', async () => {
    refuseWrites();
    try {
      const profile = await http.put('/api/auth/profile', { email: 'boss@farm.example' }, admin);
      expect(profile.status).toBe(503);
      expect(profile.body.message).toBe(`The gateway's storage refuses writes: ${REFUSED}`);
    } finally {
      takeWrites();
    }
    expect((await http.get('/api/auth/me', admin)).body.data.email).toBe('boss@example.com');
  });

  it('a grower can still sign in, refresh and sign out: the sign-in unrecorded, the revocations held in memory', async () => {
    // The revoked tokens' file refused too, as on a full card: its next write goes to /dev/full (ENOSPC).
    const revokedTemp = join(gw.dataDir, `${REVOKED_TOKENS_FILE}.tmp`);
    symlinkSync('/dev/full', revokedTemp);
    refuseWrites();
    try {
      // The password is still checked: a wrong one is a 401.
      expect((await http.post('/api/auth/login', { username: 'boss', password: 'not-the-password' })).status).toBe(401);
      const login = await http.post('/api/auth/login', { username: 'boss', password: 'correct-horse-1' });
      expect(login.status).toBe(200);
      const phone = login.body.token as string;
      expect((await http.get(`/api/devices/${GH}`, phone)).status).toBe(200);

      const refreshed = await http.post('/api/auth/refresh', undefined, phone);
      expect(refreshed.status).toBe(200);
      expect((await http.get(`/api/devices/${GH}`, phone)).status).toBe(401);
      const renewed = refreshed.body.token as string;
      expect((await http.get(`/api/devices/${GH}`, renewed)).status).toBe(200);

      expect((await http.post('/api/auth/logout', undefined, renewed)).status).toBe(200);
      expect((await http.get(`/api/devices/${GH}`, renewed)).status).toBe(401);
    } finally {
      takeWrites();
      rmSync(revokedTemp);
    }
  });

  it('health says degraded while the readings cannot be committed, and ok once they are', async () => {
    const health = async () => (await http.get('/api/health', admin)).body.data;
    expect((await health()).database).toEqual({ ok: true });
    refuseWrites();
    gw.batches.insertTick(GH, [{ sensorType: 'LDR', takenAtMs: clock.now(), lightLux: 1200 }]);
    gw.batches.flush();
    expect(await health()).toMatchObject({ status: 'degraded', database: { ok: false, error: `writes refused: ${REFUSED}` } });
    // A stranger learns only that the database is not ok.
    expect((await http.get('/api/health')).body.data).toEqual({ status: 'degraded', database: { ok: false } });
    takeWrites();
    gw.batches.flush();
    expect((await health()).database).toEqual({ ok: true });
  });

  it('once the storage takes writes again, switches are recorded as before', async () => {
    const on = await control('fan-1', 'on');
    expect(on.status).toBe(200);
    expect(on.body.data.controlLog).toMatchObject({ previousStatus: 'OFF', newStatus: 'ON' });
    expect((await control('fan-1', 'off')).status).toBe(200);
    const log = (await http.get('/api/devices/fan-1/log', admin)).body.data;
    expect(log[0]).toMatchObject({ newStatus: 'OFF', source: 'user' });
  });
});

describe('a start on a storage that refuses writes', () => {
  it('starts every feature: a device left on is made safe and held as off, unrecorded; health names no failed feature', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-readonly-start-'));
    const options = { env: {}, overrides: { port: 0, host: '127.0.0.1', demo: false, dataDir }, webRoot: null } as const;
    try {
      // A first start makes the database; then the fan is left on in it, as a stop that could not record its safe state leaves it.
      const first = await createGateway({ ...options, hardware: fakeHardware(fakeOutputs(defaultOutputs)) });
      await first.start();
      await first.stop();
      const db = new Database(join(dataDir, DATABASE_FILE));
      db.prepare("UPDATE devices SET status = 'ON' WHERE device_id = 'fan-1'").run();
      db.close();

      const outputs = fakeOutputs(defaultOutputs);
      const gw = await createGateway({ ...options, hardware: fakeHardware(outputs) });
      gw.database.sqlite.pragma('query_only = 1');
      await gw.start();
      try {
        // The start is what was refused; the checks below sign in, which writes.
        gw.database.sqlite.pragma('query_only = 0');
        rememberDataDir(gw.url, dataDir);
        const http = httpClient(gw.url);
        const admin = await registerUser(http, { username: 'boss' });
        expect((await http.get('/api/health', admin)).body.data.failedFeatures).toBeUndefined();
        expect(outputs.get(FAN)!.on).toBe(false);
        const fan = (await http.get(`/api/devices/${GH}`, admin)).body.data.find((d: any) => d.deviceId === 'fan-1');
        expect(fan.status).toBe('OFF');
        // Not recorded: the newest entry is still the one before the stop.
        const log = (await http.get('/api/devices/fan-1/log', admin)).body.data;
        expect(log.some((entry: any) => entry.action === 'safe_state' && entry.previousStatus === 'ON')).toBe(false);
        // It switches on and off as usual, recorded from then on.
        expect((await http.post('/api/devices/fan-1/control', { action: 'on' }, admin)).body.data.controlLog).toMatchObject({ previousStatus: 'OFF', newStatus: 'ON' });
      } finally {
        await gw.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
