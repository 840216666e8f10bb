import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { DEFAULT_CLOCK_POLL_MS } from '../../server/time/clock-sync.ts';
import { fakeSensors, hardwareWith } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * A gateway whose wall clock is not synchronised yet (a Pi after a power cut, offline): health says
 * so, a scheduled device stays off with the reason, retention prunes nothing; once systemd-timesyncd's
 * marker appears, the schedule acts at once.
 */
const INTERVAL_S = 5;
let gw: TestGateway;
let http: HttpClient;
let admin: string;
let clock: ManualClock;
let dir: string;
let marker: string;

async function advance(ms: number): Promise<void> {
  await clock.advanceAsync(ms, 1000);
  for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
}

const device = async (deviceId: string) => (await http.get('/api/devices/default', admin)).body.data.find((d: { deviceId: string }) => d.deviceId === deviceId);
const log = async (deviceId: string) => (await http.get(`/api/devices/${deviceId}/log?limit=5`, admin)).body.data as Array<{ action: string; reason: string }>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clock-sync-'));
  marker = join(dir, 'synchronized');
  // Noon local time: inside the photoperiod below, wherever the test runs.
  const noon = new Date(2026, 5, 1, 12, 0, 0).getTime();
  clock = new ManualClock(noon);
  gw = await startTestGateway({ simulator: { seed: 5, timeScale: 1 }, clockSync: { mode: 'check', markerPath: marker } }, { clock });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
  await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, admin);
  await http.put('/api/settings/default/devices', { deviceSettings: { minOnSeconds: 0, minOffSeconds: 0 } }, admin);
});
afterAll(async () => {
  await gw?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('time without a synchronised clock', () => {
  it('health says the clock is not synchronised (degraded)', async () => {
    const res = await http.get('/api/health', admin);
    expect(res.status).toBe(200);
    expect(res.body.data.clock).toEqual({ synchronised: false, source: 'timesyncd', synchronisedAt: null, steps: 0, lastStep: null });
    expect(res.body.data.status).toBe('degraded');
  });

  it('a photoperiod stays off with "clock not synchronised"; a running one is switched off at once', async () => {
    const res = await http.post('/api/devices/light-1/automation', { autoMode: true, automationRules: { schedule: { from: '06:00', to: '20:00' } } }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await advance(INTERVAL_S * 2000);
    expect((await device('light-1')).status).toBe('OFF');
    // Switched on by hand: automation takes it back off, saying why.
    await http.post('/api/devices/light-1/control', { action: 'on' }, admin);
    await advance(INTERVAL_S * 1000);
    expect((await device('light-1')).status).toBe('OFF');
    expect((await log('light-1'))[0]).toMatchObject({ reason: 'clock not synchronised: schedule off until the time is set' });
  });

  it('retention prunes nothing while the clock is not synchronised', async () => {
    const days = 400;
    gw.database.sqlite
      .prepare(`INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c) VALUES ('greenhouse-001', 'DHT11', ?, 20)`)
      .run(clock.now() - days * 86_400_000);
    expect(await gw.lifecycle.pruneNow()).toBeNull();
    const oldest = gw.database.sqlite.prepare('SELECT min(taken_at) AS m FROM readings').get() as { m: number };
    expect(oldest.m).toBe(clock.now() - days * 86_400_000);
  });

  it('once timesyncd writes its marker: health is synchronised and the schedule acts again', async () => {
    writeFileSync(marker, '');
    await advance(DEFAULT_CLOCK_POLL_MS);
    const health = (await http.get('/api/health', admin)).body.data;
    expect(health.clock).toMatchObject({ synchronised: true, synchronisedAt: new Date(clock.now()).toISOString() });
    expect((await device('light-1')).status).toBe('ON');
    const pruned = await gw.lifecycle.pruneNow();
    expect(pruned?.deleted.readings).toBeGreaterThanOrEqual(1);
  });
});

describe('the default clock check by hardware mode', () => {
  it('on a Raspberry Pi the clock is checked (timesyncd\'s marker); in simulator mode it is trusted', async () => {
    const pi = await startTestGateway({ hardware: 'raspberry-pi', clockSync: { markerPath: join(tmpdir(), 'no-such-marker') } }, { clock: new ManualClock(), hardware: hardwareWith(fakeSensors().sensors) });
    try {
      const piHttp = httpClient(pi.url);
      const piAdmin = await registerUser(piHttp, { username: 'pi-owner' });
      expect((await piHttp.get('/api/health', piAdmin)).body.data.clock).toMatchObject({ synchronised: false, source: 'timesyncd' });
    } finally {
      await pi.dispose();
    }
    const simulator = await startTestGateway({}, { clock: new ManualClock() });
    try {
      const simHttp = httpClient(simulator.url);
      const simAdmin = await registerUser(simHttp, { username: 'sim-owner' });
      expect((await simHttp.get('/api/health', simAdmin)).body.data.clock).toMatchObject({ synchronised: true, source: 'assumed' });
    } finally {
      await simulator.dispose();
    }
  });
});
