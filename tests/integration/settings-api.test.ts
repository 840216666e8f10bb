import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ALERT_THRESHOLDS, DEFAULT_DEVICE_SETTINGS, DEFAULT_SYSTEM_SETTINGS } from '../../server/contract/settings.ts';
import { openDatabase } from '../../server/db/open.ts';
import { settings } from '../../server/db/schema.ts';
import { ManualClock } from '../../common/clock.ts';
import type { Settings } from '../../server/contract/settings.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

let gateway: TestGateway;
let http: HttpClient;
let admin: string;
let viewer: string;
const ID = 'greenhouse-001';

beforeAll(async () => {
  gateway = await startTestGateway({}, { clock: new ManualClock() });
  http = httpClient(gateway.url);
  admin = await registerUser(http, { username: 'boss' });
  viewer = await registerUser(http, { username: 'watcher', role: 'viewer' }, admin);
});
afterAll(async () => gateway?.dispose());

const current = async (): Promise<Settings> => (await http.get(`/api/settings/${ID}`, admin)).body.data;

/** Sends a bad request and asserts 400, the field named in message and errors, and nothing changed. */
async function expectRefused(path: string, body: unknown, field: string) {
  const before = await current();
  let events = 0;
  const off = gateway.bus.on('settingsChanged', 'test', () => events++);
  const result = await http.put(`/api/settings/${ID}/${path}`, body, admin);
  off();
  expect(result.status, JSON.stringify(result.body)).toBe(400);
  expect(result.body.success).toBe(false);
  expect(result.body.message).toContain(field);
  expect(result.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  expect(await current()).toEqual(before);
  expect(events).toBe(0);
}

describe('GET /api/settings/:greenhouseId', () => {
  it('answers the defaults, also under the default alias', async () => {
    const result = await http.get(`/api/settings/${ID}`, viewer);
    expect(result.status).toBe(200);
    expect(result.body.data.alertThresholds).toEqual(DEFAULT_ALERT_THRESHOLDS);
    expect(result.body.data.systemSettings).toEqual(DEFAULT_SYSTEM_SETTINGS);
    const alias = await http.get('/api/settings/default', viewer);
    expect(alias.status).toBe(200);
    expect(alias.body.data).toEqual(result.body.data);
  });

  it('404 for another greenhouse, 401 without a token', async () => {
    const other = await http.get('/api/settings/greenhouse-999', admin);
    expect(other.status).toBe(404);
    expect(other.body.message).toContain('greenhouse-999');
    expect((await http.get(`/api/settings/${ID}`)).status).toBe(401);
  });
});

describe('PUT thresholds', () => {
  it('updates one bound, keeps the rest, null unsets, and publishes settingsChanged', async () => {
    const seen: Settings[] = [];
    const off = gateway.bus.on('settingsChanged', 'test', ({ settings }) => seen.push(settings));
    const result = await http.put(`/api/settings/default/thresholds`, { alertThresholds: { temperature: { high: 31.5 }, lightLevel: { low: 200 }, waterLevel: { low: null } } }, admin);
    off();
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('Alert thresholds updated successfully');
    expect(result.body.data.alertThresholds.temperature).toEqual({ high: 31.5, low: 10 });
    expect(result.body.data.alertThresholds.lightLevel.low).toBe(200);
    expect(result.body.data.alertThresholds.waterLevel.low).toBeNull();
    expect(seen).toHaveLength(1);
    expect((await current()).alertThresholds).toEqual(result.body.data.alertThresholds);
  });

  it.each([
    [{ humidity: { high: 101 } }, 'alertThresholds.humidity.high'],
    [{ humidity: { low: -0.1 } }, 'alertThresholds.humidity.low'],
    [{ soilMoisture: { low: -1 } }, 'alertThresholds.soilMoisture.low'],
    [{ soilMoisture: { low: 100.5 } }, 'alertThresholds.soilMoisture.low'],
    [{ lightLevel: { low: -5 } }, 'alertThresholds.lightLevel.low'],
    [{ waterLevel: { low: -1 } }, 'alertThresholds.waterLevel.low'],
    [{ temperature: { high: '30' } }, 'alertThresholds.temperature.high'],
    [{ temperature: { high: 500 } }, 'alertThresholds.temperature.high'],
    [{ temperature: { low: 40 } }, 'alertThresholds.temperature.low'],
    [{ temperature: { high: 5 } }, 'alertThresholds.temperature.high'],
    [{ humidity: { low: 95 } }, 'alertThresholds.humidity.low'],
    [{ humidity: { low: 50, high: 50 } }, 'alertThresholds.humidity.low'],
    [{ temperature: { hi: 30 } }, 'alertThresholds.temperature.hi'],
    [{ co2: { high: -1 } }, 'alertThresholds.co2.high'],
    [{ co2: { high: 40001 } }, 'alertThresholds.co2.high'],
    [{ co2: { high: '1500' } }, 'alertThresholds.co2.high'],
    [{ co2: { low: 400 } }, 'alertThresholds.co2.low'],
    [{ temperature: 30 }, 'alertThresholds.temperature'],
    // Every threshold is bounded by what its sensors can report (common/catalogue.ts).
    [{ waterLevel: { low: 1e308 } }, 'alertThresholds.waterLevel.low'],
    [{ waterLevel: { low: 400.1 } }, 'alertThresholds.waterLevel.low'],
    [{ lightLevel: { low: 1e308 } }, 'alertThresholds.lightLevel.low'],
    [{ lightLevel: { low: 200001 } }, 'alertThresholds.lightLevel.low'],
    [{ temperature: { low: -41 } }, 'alertThresholds.temperature.low'],
  ])('refuses %j naming %s', async (alertThresholds, field) => {
    await expectRefused('thresholds', { alertThresholds }, field);
  });

  it('sets and unsets the CO2 high threshold (unset by default)', async () => {
    expect((await current()).alertThresholds.co2).toEqual({ high: null });
    const set = await http.put(`/api/settings/${ID}/thresholds`, { alertThresholds: { co2: { high: 1500 } } }, admin);
    expect(set.status).toBe(200);
    expect(set.body.data.alertThresholds.co2).toEqual({ high: 1500 });
    expect((await current()).alertThresholds.co2).toEqual({ high: 1500 });
    const unset = await http.put(`/api/settings/${ID}/thresholds`, { alertThresholds: { co2: { high: null } } }, admin);
    expect(unset.body.data.alertThresholds.co2).toEqual({ high: null });
  });

  it('refuses a body without alertThresholds, or with extra top-level keys', async () => {
    await expectRefused('thresholds', { temperature: { high: 30 } }, 'alertThresholds');
    await expectRefused('thresholds', { alertThresholds: {}, systemSettings: {} }, 'systemSettings');
  });
});

describe('PUT system', () => {
  it('updates the given fields only', async () => {
    const result = await http.put(`/api/settings/${ID}/system`, { systemSettings: { dataRetentionDays: 14 } }, admin);
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('System settings updated successfully');
    expect(result.body.data.systemSettings).toEqual({ ...DEFAULT_SYSTEM_SETTINGS, dataRetentionDays: 14 });
  });

  it('publishes an updateInterval change to settingsChanged listeners (how the sampler learns it)', async () => {
    const seen: Array<[number, number]> = [];
    const off = gateway.bus.on('settingsChanged', 'test', ({ settings, previous }) =>
      seen.push([previous.systemSettings.updateInterval, settings.systemSettings.updateInterval]),
    );
    const result = await http.put(`/api/settings/${ID}/system`, { systemSettings: { updateInterval: 12 } }, admin);
    off();
    expect(result.status).toBe(200);
    expect(seen).toEqual([[5, 12]]);
    expect(gateway.settings.get().systemSettings.updateInterval).toBe(12);
  });

  it.each([
    [{ dataRetentionDays: 0 }, 'systemSettings.dataRetentionDays'],
    [{ dataRetentionDays: 3651 }, 'systemSettings.dataRetentionDays'],
    [{ dataRetentionDays: 7.5 }, 'systemSettings.dataRetentionDays'],
    [{ updateInterval: 0 }, 'systemSettings.updateInterval'],
    [{ updateInterval: 99999 }, 'systemSettings.updateInterval'],
    [{ updateInterval: '5' }, 'systemSettings.updateInterval'],
    [{ updateInterval: null }, 'systemSettings.updateInterval'],
    [{ autoBackup: 'yes' }, 'systemSettings.autoBackup'],
    [{ maintenanceMode: 1 }, 'systemSettings.maintenanceMode'],
    [{ retention: 7 }, 'systemSettings.retention'],
  ])('refuses %j naming %s', async (systemSettings, field) => {
    await expectRefused('system', { systemSettings }, field);
  });

  it('refuses a non-object body', async () => {
    await expectRefused('system', { systemSettings: [1] }, 'systemSettings');
  });
});

describe('PUT devices', () => {
  it('updates a nested deadband field', async () => {
    const result = await http.put(`/api/settings/${ID}/devices`, { deviceSettings: { deadband: { temperatureC: 1 }, pumpMaxRunSeconds: 120 } }, admin);
    expect(result.status).toBe(200);
    expect(result.body.data.deviceSettings.deadband.temperatureC).toBe(1);
    expect(result.body.data.deviceSettings.deadband.humidityPct).toBe(3);
    expect(result.body.data.deviceSettings.pumpMaxRunSeconds).toBe(120);
  });

  it('accepts a budget just below its window', async () => {
    const result = await http.put(`/api/settings/${ID}/devices`, { deviceSettings: { pumpRunWindowMinutes: 2, pumpMaxRunSeconds: 119, minOnSeconds: 118 } }, admin);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect((await current()).deviceSettings).toMatchObject({ pumpRunWindowMinutes: 2, pumpMaxRunSeconds: 119, minOnSeconds: 118 });
    const back = await http.put(`/api/settings/${ID}/devices`, { deviceSettings: { pumpRunWindowMinutes: 60, pumpMaxRunSeconds: 120, minOnSeconds: 30 } }, admin);
    expect(back.status).toBe(200);
  });

  it('refuses a run budget that cannot be spent in its window, naming the field sent and both values', async () => {
    const both = await http.put(`/api/settings/${ID}/devices`, { deviceSettings: { pumpMaxRunSeconds: 3600, pumpRunWindowMinutes: 1 } }, admin);
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/deviceSettings\.pumpMaxRunSeconds \(3600\) must be below .*deviceSettings\.pumpRunWindowMinutes \(1 min = 60 s\)/);
    await expectRefused('devices', { deviceSettings: { pumpMaxRunSeconds: 3600, pumpRunWindowMinutes: 1 } }, 'deviceSettings.pumpMaxRunSeconds');
    // Against the stored other half (budget 120 s): a 2-minute window leaves no pause.
    await expectRefused('devices', { deviceSettings: { pumpRunWindowMinutes: 2 } }, 'deviceSettings.pumpRunWindowMinutes');
    await expectRefused('devices', { deviceSettings: { pumpMaxRunSeconds: 3600 } }, 'deviceSettings.pumpMaxRunSeconds');
  });

  it('accepts a pump run budget shorter than the minimum on time (the budget is the safety limit and wins)', async () => {
    const short = await http.put(`/api/settings/${ID}/devices`, { deviceSettings: { pumpMaxRunSeconds: 5 } }, admin);
    expect(short.status, JSON.stringify(short.body)).toBe(200);
    expect((await current()).deviceSettings).toMatchObject({ pumpMaxRunSeconds: 5, minOnSeconds: 30 });
  });

  it.each([
    [{ pumpMaxRunSeconds: 1 }, 'deviceSettings.pumpMaxRunSeconds'],
    [{ deadband: { temperatureC: -1 } }, 'deviceSettings.deadband.temperatureC'],
    [{ deadband: { co2: 1 } }, 'deviceSettings.deadband.co2'],
    [{ minOnSeconds: '30' }, 'deviceSettings.minOnSeconds'],
  ])('refuses %j naming %s', async (deviceSettings, field) => {
    await expectRefused('devices', { deviceSettings }, field);
  });
});

describe('permissions and greenhouse ids on writes', () => {
  it('viewers get 403 on every write and nothing changes', async () => {
    const before = await current();
    const calls: Array<[string, string, unknown]> = [
      ['PUT', 'thresholds', { alertThresholds: { temperature: { high: 30 } } }],
      ['PUT', 'system', { systemSettings: { maintenanceMode: true } }],
      ['PUT', 'devices', { deviceSettings: { minOnSeconds: 5 } }],
      ['POST', 'reset', undefined],
    ];
    for (const [method, path, body] of calls) {
      const result = await http.request(method, `/api/settings/${ID}/${path}`, { body, token: viewer });
      expect(result.status).toBe(403);
      expect(result.body.success).toBe(false);
    }
    expect(await current()).toEqual(before);
  });

  it('an unknown greenhouse is 404 on writes and nothing changes', async () => {
    const before = await current();
    const result = await http.put('/api/settings/greenhouse-999/system', { systemSettings: { updateInterval: 9 } }, admin);
    expect(result.status).toBe(404);
    expect((await http.post('/api/settings/nope/reset', undefined, admin)).status).toBe(404);
    expect(await current()).toEqual(before);
  });

  it('reset restores the defaults and survives a reload from the database', async () => {
    await http.put(`/api/settings/${ID}/system`, { systemSettings: { updateInterval: 60 } }, admin);
    const result = await http.post(`/api/settings/default/reset`, undefined, admin);
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('Settings reset to defaults');
    expect(result.body.data.systemSettings).toEqual(DEFAULT_SYSTEM_SETTINGS);
    expect(result.body.data.alertThresholds).toEqual(DEFAULT_ALERT_THRESHOLDS);
  });
});

describe('settings stored by a release without the CO2 threshold', () => {
  it('read with the new default filled in, and a CO2 change keeps the stored values', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-old-settings-'));
    const opened = openDatabase(dataDir);
    const old = { ...DEFAULT_ALERT_THRESHOLDS, temperature: { high: 29, low: 12 } } as Record<string, unknown>;
    delete old.co2;
    opened.db.insert(settings).values({
      greenhouseId: ID, alertThresholds: old, systemSettings: DEFAULT_SYSTEM_SETTINGS, deviceSettings: DEFAULT_DEVICE_SETTINGS, updatedAt: new Date(0),
    }).run();
    opened.close();
    const older = await startTestGateway({ dataDir }, { clock: new ManualClock() });
    try {
      const client = httpClient(older.url);
      const token = await registerUser(client, { username: 'grower' });
      const read = await client.get(`/api/settings/${ID}`, token);
      expect(read.status).toBe(200);
      expect(read.body.data.alertThresholds).toEqual({ ...DEFAULT_ALERT_THRESHOLDS, temperature: { high: 29, low: 12 }, co2: { high: null } });
      const put = await client.put(`/api/settings/${ID}/thresholds`, { alertThresholds: { co2: { high: 1200 } } }, token);
      expect(put.status).toBe(200);
      expect(put.body.data.alertThresholds.temperature).toEqual({ high: 29, low: 12 });
      expect(put.body.data.alertThresholds.co2).toEqual({ high: 1200 });
    } finally {
      await older.dispose();
    }
  });
});
