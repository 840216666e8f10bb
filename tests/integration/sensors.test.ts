import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSensors, hardwareWith } from '../support/fake-sensors.ts';
import { seedReadings } from '../support/readings.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { TestSocket } from '../support/ws.ts';

let gw: TestGateway;
let http: HttpClient;
let token: string;
const fakes = fakeSensors({ climate: { temperatureC: 24.5, humidityPct: 55 } });
const HOUR = 3_600_000;

beforeAll(async () => {
  // Fake sensors behind the driver interfaces; a long interval so only the start-up tick and the ticks
  // the tests ask for (sampleNow) run.
  gw = await startTestGateway({}, { hardware: hardwareWith(fakes.sensors) });
  http = httpClient(gw.url);
  token = await registerUser(http, { username: 'grower' });
  await http.put('/api/settings/greenhouse-001/system', { systemSettings: { updateInterval: 3600 } }, token);
  const now = Date.now();
  seedReadings(gw.database.sqlite, now - 30 * HOUR, now - HOUR, { temperatureC: 20, humidityPct: 70, lightLux: 1000, soilMoisturePct: 30 });
  await gw.sampler.sampleNow();
});
afterAll(async () => {
  await gw.dispose();
});

const count = () => (gw.database.sqlite.prepare('SELECT count(*) AS n FROM readings').get() as { n: number }).n;

describe('/api/sensors', () => {
  it('answers the latest reading per sensor type with its status', async () => {
    const res = await http.get('/api/sensors/latest/greenhouse-001', token);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => r.sensorType)).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']);
    expect(res.body.data[0]).toMatchObject({ temperature: 24.5, humidity: 55, value: 24.5, unit: '°C', status: 'online' });
    expect(res.body.data[3]).toMatchObject({ waterLevel: 30, unit: 'cm', status: 'online' });
  });

  it("accepts the 'default' alias and refuses another greenhouse (404) and no token (401)", async () => {
    expect((await http.get('/api/sensors/latest/default', token)).status).toBe(200);
    const other = await http.get('/api/sensors/historical/greenhouse-999', token);
    expect(other.status).toBe(404);
    expect(other.body.message).toContain('greenhouse-999');
    for (const path of ['latest/greenhouse-001', 'historical/greenhouse-001', 'stats/greenhouse-001', 'hourly/greenhouse-001']) {
      expect((await http.get(`/api/sensors/${path}`)).status).toBe(401);
    }
  });

  it('answers downsampled, time-ordered history for the ranges, filtered by sensor type', async () => {
    const day = await http.get('/api/sensors/historical/greenhouse-001', token); // default 24 h
    expect(day.status).toBe(200);
    const times = day.body.data.map((r: any) => Date.parse(r.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(Date.now() - 24 * HOUR - 120_000);
    expect(day.body.data.every((r: any) => r.bucketMs === 120_000)).toBe(true);
    const week = await http.get('/api/sensors/historical/greenhouse-001?hours=168', token);
    expect(week.body.data.length).toBeGreaterThan(day.body.data.length);
    const hour = await http.get('/api/sensors/historical/greenhouse-001?hours=1', token);
    expect([...new Set(hour.body.data.map((r: any) => r.sensorType))].sort()).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']);
    const ldr = await http.get('/api/sensors/historical/greenhouse-001?hours=72&sensorType=LDR', token);
    expect(ldr.body.data.length).toBeGreaterThan(0);
    expect(ldr.body.data.every((r: any) => r.sensorType === 'LDR' && typeof r.lightIntensity === 'number' && r.temperature === undefined)).toBe(true);
  });

  it('refuses bad query values with a 400 naming the field, changing nothing', async () => {
    const before = count();
    for (const [query, field] of [
      ['hours=5', 'hours'],
      ['hours=abc', 'hours'],
      ['hours=', 'hours'],
      ['sensorType=FOO', 'sensorType'],
      ['hours=24&sensorType=dht11', 'sensorType'],
    ] as const) {
      const res = await http.get(`/api/sensors/historical/greenhouse-001?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message, query).toContain(field);
    }
    for (const path of ['stats', 'hourly']) {
      const res = await http.get(`/api/sensors/${path}/greenhouse-001?hours=5`, token);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('hours');
    }
    expect(count()).toBe(before);
  });

  it('answers stats per sensor type and hourly buckets', async () => {
    const stats = await http.get('/api/sensors/stats/greenhouse-001?hours=72', token);
    expect(stats.status).toBe(200);
    const dht = stats.body.data.find((s: any) => s._id === 'DHT11');
    expect(dht.count).toBeGreaterThan(100);
    expect(dht.avgTemperature).toBeGreaterThan(20);
    expect(dht.avgTemperature).toBeLessThan(24.5);
    expect(dht).toHaveProperty('avgLightIntensity', null);
    const hourly = await http.get('/api/sensors/hourly/greenhouse-001?hours=168', token);
    expect(hourly.body.data).toHaveLength(24);
    const total = hourly.body.data.reduce((sum: number, h: any) => sum + h.count, 0);
    expect(total).toBe(count());
    // An hour of the seeded readings only: the live ticks (another soil value) fall in the current
    // local hour, which at 00:xx is also the first bucket.
    const liveHours = new Set([new Date().getHours(), new Date(Date.now() - 10 * 60_000).getHours()]);
    expect(hourly.body.data.find((h: any) => h.count > 0 && !liveHours.has(h.hour))).toMatchObject({ avgSoilMoisture: 30 });
  });
});

describe('realtime', () => {
  it('a joined client receives sensorUpdate and allSensorsUpdate after a tick', async () => {
    const socket = new TestSocket(gw.url);
    try {
      await socket.join(token);
      fakes.climate.value = { temperatureC: 25, humidityPct: 54 }; // a new value: not a driver-cached repeat
      await gw.sampler.sampleNow();
      const update = await socket.next('sensorUpdate', (r) => r.sensorType === 'DHT11');
      expect(update).toMatchObject({ greenhouseId: 'greenhouse-001', temperature: 25, humidity: 54, unit: '°C' });
      const all = await socket.next('allSensorsUpdate');
      expect(all).toMatchObject({ greenhouseId: 'greenhouse-001', temperature: 25, humidity: 54, lightIntensity: 500, soilMoisture: 40, waterLevel: 30 });
    } finally {
      socket.close();
    }
  });
});
