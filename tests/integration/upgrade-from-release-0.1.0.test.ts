// A data directory written by release 0.1.0 (tests/fixtures/release-0.1.0-data, three simulated days)
// opens with today's code: the migrations run and history, rollups, alerts, devices and accounts stay.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, type HttpClient } from '../support/http.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'release-0.1.0-data');
/** The fixture's last reading (it starts 2026-06-01T00:10Z and runs three days at a 10-minute interval). */
const FIXTURE_END_MS = Date.UTC(2026, 5, 4, 0, 0, 0);

let gw: TestGateway;
let http: HttpClient;
let token: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-upgrade-'));
  cpSync(FIXTURE, dataDir, { recursive: true });
  gw = await startTestGateway({ dataDir }, { clock: new ManualClock(FIXTURE_END_MS + 60_000) });
  http = httpClient(gw.url);
  const login = await http.post('/api/auth/login', { username: 'grower', password: 'correct-horse-1' });
  expect(login.status).toBe(200);
  token = login.body.token;
});
afterAll(async () => gw?.dispose());

describe('upgrading a release-0.1.0 data directory', () => {
  it('keeps every reading and rollup, and adds the new quantity columns empty', () => {
    const db = gw.database.sqlite;
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count(`SELECT count(*) AS n FROM readings WHERE taken_at <= ${FIXTURE_END_MS}`)).toBe(1728);
    expect(count(`SELECT count(*) AS n FROM reading_rollups WHERE bucket_at <= ${FIXTURE_END_MS}`)).toBe(3748);
    expect(count(`SELECT count(*) AS n FROM readings WHERE co2_ppm IS NOT NULL OR pressure_hpa IS NOT NULL OR root_temperature_c IS NOT NULL`)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM reading_rollups WHERE co2_ppm_n <> 0 OR co2_ppm_sum <> 0`)).toBe(0);
  });

  it('serves the old history, from raw rows and from the rollups', async () => {
    const day = await http.get('/api/sensors/historical/greenhouse-001?hours=24&sensorType=DHT11', token);
    expect(day.status).toBe(200);
    expect(day.body.data.length).toBeGreaterThan(100);
    expect(day.body.data[0]).toMatchObject({ sensorType: 'DHT11', temperature: expect.any(Number), humidity: expect.any(Number), vpdKpa: expect.any(Number) });
    expect(day.body.data[0].co2).toBeUndefined();
    const week = await http.get('/api/sensors/historical/greenhouse-001?hours=168&sensorType=SOIL_MOISTURE', token);
    expect(week.body.data.length).toBeGreaterThan(300);
    const stats = await http.get('/api/sensors/stats/greenhouse-001?hours=168', token);
    expect(stats.body.data.find((s: { _id: string }) => s._id === 'DHT11').count).toBeGreaterThanOrEqual(432);
  });

  it('keeps alerts, devices and accounts', async () => {
    const alerts = await http.get('/api/alerts/greenhouse-001', token);
    expect(alerts.body.data.length).toBeGreaterThanOrEqual(10);
    const devices = await http.get('/api/devices/greenhouse-001', token);
    expect(devices.body.data.map((d: { deviceId: string }) => d.deviceId)).toContain('fan-2');
    expect((await http.post('/api/auth/login', { username: 'helper', password: 'correct-horse-2' })).status).toBe(200);
  });
});
