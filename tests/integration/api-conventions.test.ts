import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let viewer: string;

beforeAll(async () => {
  gw = await startTestGateway({ bodyLimitBytes: 4096 });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'admin1' });
  viewer = await registerUser(http, { username: 'viewer1', role: 'viewer' }, admin);
});
afterAll(() => gw.dispose());

const settingsRow = () => JSON.stringify(gw.database.sqlite.prepare('SELECT * FROM settings').all());

describe('envelope and status codes', () => {
  it('answers malformed JSON with 400 and changes nothing', async () => {
    const res = await http.request('POST', '/api/auth/register', { rawBody: '{"username": "x", ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: 'Malformed JSON in request body' });
  });

  it('answers an oversize body with 413', async () => {
    const res = await http.post('/api/auth/register', { username: 'big', email: 'b@example.com', password: 'x'.repeat(10_000) });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(/too large/);
  });

  it('answers unknown /api routes with a JSON 404, even without a token', async () => {
    const res = await http.get('/api/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Route GET /api/no/such/route not found' });
  });

  it('answers an unknown greenhouse with 404 and accepts the default alias', async () => {
    const unknown = await http.get('/api/settings/greenhouse-999', admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('greenhouse-999');
    const alias = await http.get('/api/settings/default', admin);
    expect(alias.status).toBe(200);
    expect(alias.body.data.greenhouseId).toBe('greenhouse-001');
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await http.request('POST', '/api/auth/login', { rawBody: 'username=a', headers: { 'content-type': 'text/plain' } });
    expect([400, 415]).toContain(res.status);
    expect(res.body.success).toBe(false);
  });
});

describe('settings', () => {
  it('reads the defaults of the specification', async () => {
    const res = await http.get('/api/settings/greenhouse-001', viewer);
    expect(res.status).toBe(200);
    expect(res.body.data.systemSettings).toEqual({ dataRetentionDays: 30, updateInterval: 5, autoBackup: true, maintenanceMode: false, escalateAfterMinutes: 15, site: null });
    expect(res.body.data.alertThresholds.temperature).toEqual({ high: 35, low: 10 });
  });

  it('lets an admin change thresholds; null unsets one', async () => {
    const res = await http.put('/api/settings/greenhouse-001/thresholds', { alertThresholds: { temperature: { high: 30.5 }, lightLevel: { low: null } } }, admin);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Alert thresholds updated successfully');
    expect(res.body.data.alertThresholds.temperature).toEqual({ high: 30.5, low: 10 });
  });

  it('forbids viewers to change settings (403) and changes nothing', async () => {
    const before = settingsRow();
    for (const [path, body] of [
      ['thresholds', { alertThresholds: { temperature: { high: 20 } } }],
      ['system', { systemSettings: { maintenanceMode: true } }],
      ['devices', { deviceSettings: { pumpMaxRunSeconds: 60 } }],
      ['reset', undefined],
    ] as const) {
      const res = await http.request(path === 'reset' ? 'POST' : 'PUT', `/api/settings/greenhouse-001/${path}`, { body, token: viewer });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/read-only/);
    }
    expect(settingsRow()).toBe(before);
  });

  it.each([
    [{ alertThresholds: { humidity: { high: 101 } } }, 'thresholds', 'humidity.high'],
    [{ alertThresholds: { soilMoisture: { low: -1 } } }, 'thresholds', 'soilMoisture.low'],
    [{ alertThresholds: { lightLevel: { low: -5 } } }, 'thresholds', 'lightLevel.low'],
    [{ alertThresholds: { temperature: { high: '30' } } }, 'thresholds', 'temperature.high'],
    [{ alertThresholds: { temperature: { low: 40 } } }, 'thresholds', 'temperature.low'],
    [{ systemSettings: { updateInterval: 0 } }, 'system', 'updateInterval'],
    [{ systemSettings: { dataRetentionDays: 0 } }, 'system', 'dataRetentionDays'],
    [{ systemSettings: { maintenanceMode: 'yes' } }, 'system', 'maintenanceMode'],
    [{}, 'system', 'systemSettings'],
  ])('refuses %j on %s with a 400 naming %s', async (body, path, field) => {
    const before = settingsRow();
    const res = await http.put(`/api/settings/greenhouse-001/${path}`, body, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect(settingsRow()).toBe(before);
  });

  it('publishes settingsChanged so a change applies live', async () => {
    const seen: number[] = [];
    const off = gw.bus.on('settingsChanged', 'test', ({ settings }) => seen.push(settings.systemSettings.updateInterval));
    await http.put('/api/settings/greenhouse-001/system', { systemSettings: { updateInterval: 2 } }, admin);
    off();
    expect(seen).toEqual([2]);
  });

  it('resets to defaults', async () => {
    const res = await http.post('/api/settings/greenhouse-001/reset', undefined, admin);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Settings reset to defaults');
    expect(res.body.data.systemSettings.updateInterval).toBe(5);
  });
});
