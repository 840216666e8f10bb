import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/**
 * Several sensors of a kind, in simulator mode over real HTTP: two air sensors serve the DHT11 zone.
 * One going silent changes nothing but its own status (and a MEDIUM alert naming it); both silent is
 * sensor loss: SENSOR_FAULT, the zone's status 'fault', and a fan in auto mode goes to its safe state.
 */
const INTERVAL_S = 5;
const ID = 'greenhouse-001';

let gw: TestGateway;
let http: HttpClient;
let token: string;
let clock: ManualClock;

const instances = [
  { sensorId: 'air-north', kind: 'SHT4X', name: 'North bench' },
  { sensorId: 'air-south', kind: 'DHT22', pin: 4, name: 'South bench' },
  { sensorId: 'co2', kind: 'SCD4X' },
  { sensorId: 'roots', kind: 'DS18B20', w1Id: '28-0316a2796aff' },
  { sensorId: 'tank', kind: 'HCSR04', triggerPin: 23, echoPin: 24, tankDepthCm: 100 },
];

beforeAll(async () => {
  clock = new ManualClock();
  gw = await startTestGateway({ simulator: { seed: 3, timeScale: 1 }, sensors: { instances } } as never, { clock });
  http = httpClient(gw.url);
  token = await registerUser(http, { username: 'grower' });
  await http.put(`/api/settings/${ID}/system`, { systemSettings: { updateInterval: INTERVAL_S } }, token);
  // A fan that runs whenever the air is above 0 °C: on while the zone is served, off on sensor loss.
  const auto = await http.post('/api/devices/fan-1/automation', { autoMode: true, automationRules: { temperatureHigh: 0 } }, token);
  expect(auto.status, JSON.stringify(auto.body)).toBe(200);
  await clock.advanceAsync(3 * INTERVAL_S * 1000);
});
afterAll(async () => {
  // A tick may be waiting on the manual clock (a silent sensor's retry): let it end.
  const stopping = gw?.dispose();
  await clock.advanceAsync(30_000);
  await stopping;
});

const get = async (path: string) => {
  const res = await http.get(path, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const instance = async (sensorId: string) => (await get(`/api/sensors/instances/${ID}`)).find((i: { sensorId: string }) => i.sensorId === sensorId);
const zone = async (type: string) => (await get(`/api/sensors/latest/${ID}`)).find((r: { sensorType: string }) => r.sensorType === type);
const activeTypes = async () => (await get(`/api/alerts/active/${ID}`)).map((a: { alertType: string; deviceId: string | null }) => `${a.alertType}:${a.deviceId}`);
const fan = async () => (await get(`/api/devices/${ID}`)).find((d: { deviceId: string }) => d.deviceId === 'fan-1');

describe('sensor instances', () => {
  it('lists every instance with its kind, status, newest values and datasheet accuracy', async () => {
    const list = await get(`/api/sensors/instances/${ID}`);
    expect(list.map((i: { sensorId: string }) => i.sensorId)).toEqual(['air-north', 'air-south', 'co2', 'roots', 'tank']);
    const north = list[0];
    expect(north).toMatchObject({ kind: 'SHT4X', name: 'North bench', zone: 'DHT11', quantities: ['temperatureC', 'humidityPct'], status: 'ok', accuracy: { temperatureC: 0.2, humidityPct: 1.8 } });
    expect(north.values.temperatureC).toEqual(expect.any(Number));
    expect(Date.parse(north.lastReadingAt)).toBeGreaterThan(0);
    const co2 = list[2];
    expect(co2.zone).toBe('DHT11');
    // ±(50 ppm + 5 % of the reading).
    expect(co2.accuracy.co2Ppm).toBeCloseTo(50 + 0.05 * co2.values.co2Ppm, 6);
    expect(list[3]).toMatchObject({ zone: 'SOIL_MOISTURE', quantities: ['rootTemperatureC'], accuracy: { rootTemperatureC: 0.5 } });
  });

  it('serves the zone as the median of its instances, with the new quantities and VPD uncertainty from the sensors used', async () => {
    const air = await zone('DHT11');
    expect(air.status).toBe('online');
    expect(air.co2).toEqual(expect.any(Number));
    expect(air.temperature).toEqual(expect.any(Number));
    // SHT4x, DHT22 and SCD4x behind the median: far better than the DHT11's ±0.3 kPa.
    expect(air.vpdUncertaintyKpa).toBeGreaterThan(0);
    expect(air.vpdUncertaintyKpa).toBeLessThan(0.3);
    expect((await zone('SOIL_MOISTURE')).rootTemperature).toEqual(expect.any(Number));
    expect((await fan()).status).toBe('ON');
  });

  it('a CO2 high threshold raises CO2_HIGH from the SCD4x and resolves it when unset', async () => {
    const ppm = (await zone('DHT11')).co2 as number;
    const set = await http.put(`/api/settings/${ID}/thresholds`, { alertThresholds: { co2: { high: Math.max(0, Math.round(ppm) - 300) } } }, token);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await clock.advanceAsync(2 * INTERVAL_S * 1000);
    const alerts = await get(`/api/alerts/active/${ID}`);
    const co2 = alerts.find((a: { alertType: string }) => a.alertType === 'CO2_HIGH');
    expect(co2, JSON.stringify(alerts)).toBeDefined();
    expect(co2.message).toMatch(/^CO₂ \d+ ppm is above the high threshold of \d+ ppm$/);
    await http.put(`/api/settings/${ID}/thresholds`, { alertThresholds: { co2: { high: null } } }, token);
    await clock.advanceAsync(2 * INTERVAL_S * 1000);
    expect(await activeTypes()).not.toContain('CO2_HIGH:null');
  });

  it('refuses a fault for an unknown instance, or for both a sensor and an instance, with a 400 naming the field', async () => {
    const unknown = await http.post('/api/simulator/faults', { sensorId: 'nope', fault: 'silent' }, token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/sensorId/);
    const both = await http.post('/api/simulator/faults', { sensor: 'DHT11', sensorId: 'air-north', fault: 'silent' }, token);
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/sensor/);
    expect((await get('/api/simulator')).instanceFaults.every((f: { fault: string }) => f.fault === 'none')).toBe(true);
  });

  it('one air sensor silent: the zone goes on, the instance shows its fault, a MEDIUM alert names it', async () => {
    const res = await http.post('/api/simulator/faults', { sensorId: 'air-north', fault: 'silent' }, token);
    expect(res.status).toBe(200);
    await clock.advanceAsync(6 * INTERVAL_S * 1000);
    expect((await instance('air-north')).status).toBe('fault');
    expect((await instance('air-south')).status).toBe('ok');
    const air = await zone('DHT11');
    expect(air.status).toBe('online');
    expect(Date.parse(air.timestamp)).toBeGreaterThan(clock.now() - 2 * INTERVAL_S * 1000);
    const types = await activeTypes();
    expect(types).toContain('SENSOR_DEGRADED:air-north');
    expect(types.filter((t: string) => t.startsWith('SENSOR_FAULT'))).toEqual([]);
    expect((await fan()).status).toBe('ON');
  });

  it('every temperature sensor silent: sensor loss, SENSOR_FAULT, the zone faulted and the fan in its safe state', async () => {
    await http.post('/api/simulator/faults', { sensorId: 'air-south', fault: 'silent' }, token);
    await http.post('/api/simulator/faults', { sensorId: 'co2', fault: 'silent' }, token);
    await clock.advanceAsync(6 * INTERVAL_S * 1000);
    expect(await activeTypes()).toContain('SENSOR_FAULT:DHT11');
    expect((await zone('DHT11')).status).toBe('fault');
    expect((await fan()).status).toBe('OFF');
  });

  it('comes back when a sensor answers again', async () => {
    await http.post('/api/simulator/faults', { sensorId: 'air-south', fault: 'none' }, token);
    await clock.advanceAsync(3 * INTERVAL_S * 1000);
    expect((await zone('DHT11')).status).toBe('online');
    expect(await activeTypes()).not.toContain('SENSOR_FAULT:DHT11');
    expect((await instance('air-south')).status).toBe('ok');
  });
});
