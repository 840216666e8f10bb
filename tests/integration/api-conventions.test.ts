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

describe('query strings are as strict as bodies', () => {
  it.each([
    ['/api/alerts/greenhouse-001?status=active&zz=1'],
    ['/api/alerts/export/greenhouse-001?severity=HIGH&zz=1'],
    ['/api/devices/fan-1/log?limit=5&zz=1'],
    ['/api/devices/pump-1/water?days=2&zz=1'],
    ['/api/notifications/log?limit=100&zz=1'],
    ['/api/analytics/export/greenhouse-001?hours=24&zz=1'],
    ['/api/climate/greenhouse-001/curve?hours=24&zz=1'],
    ['/api/sensors/historical/greenhouse-001?hours=24&zz=1'],
  ])('%s: an unknown parameter is a 400 naming it', async (path) => {
    const res = await http.get(path, admin);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Invalid query: zz is not an accepted field' });
  });

  it('a write that declares no query refuses any parameter, naming it, and changes nothing; a read without parameters ignores one', async () => {
    const res = await http.get('/api/devices/greenhouse-001?_=1700000000000', admin);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    const before = settingsRow();
    const post = await http.post('/api/settings/greenhouse-001/reset?force=1', undefined, admin);
    expect(post.status).toBe(400);
    expect(post.body.message).toMatch(/force/);
    expect(settingsRow()).toBe(before);
  });

  it('the parameters the dashboard sends are still accepted', async () => {
    for (const path of [
      '/api/alerts/greenhouse-001?status=resolved&severity=CRITICAL',
      '/api/alerts/export/greenhouse-001?status=active',
      '/api/devices/fan-1/log?limit=50&source=user',
      '/api/devices/pump-1/water?days=7',
      '/api/notifications/log?limit=100',
      '/api/analytics/export/greenhouse-001?hours=24',
      '/api/climate/greenhouse-001/curve?hours=24&from=2026-01-01T00%3A00%3A00.000Z',
      '/api/sensors/light-integral/greenhouse-001?days=7',
    ]) {
      const res = await http.get(path, admin);
      expect(res.status, path).toBe(200);
    }
  });
});

describe('an empty body sent as JSON', () => {
  it('is no body: a call that takes none answers, one that needs a body says so and changes nothing', async () => {
    const toggled = await http.request('POST', '/api/devices/fan-1/toggle', { rawBody: '', token: admin });
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    expect((await http.request('POST', '/api/devices/fan-1/toggle', { rawBody: '', token: admin })).status).toBe(200);
    const before = (await http.get('/api/devices/greenhouse-001', admin)).body.data;
    const add = await http.request('POST', '/api/devices', { rawBody: ' ', token: admin });
    expect(add.status).toBe(400);
    expect(add.body.success).toBe(false);
    expect(add.body.message).not.toMatch(/Malformed JSON/);
    expect((await http.get('/api/devices/greenhouse-001', admin)).body.data).toEqual(before);
  });
});

describe('bodies with prototype keys', () => {
  it.each([
    ['{"action":"on","__proto__":{"admin":true}}', '__proto__'],
    ['{"action":"on","extras":{"a":[{"__proto__":{}}]}}', 'extras.a.0.__proto__'],
    ['{"action":"on","constructor":{"prototype":{"x":1}}}', 'constructor'],
  ])('%s is a 400 naming %s, not "malformed JSON", and changes nothing', async (rawBody, key) => {
    const before = (await http.get('/api/devices/greenhouse-001', admin)).body.data;
    const res = await http.request('POST', '/api/devices/fan-1/control', { rawBody, token: admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: `Invalid body: ${key} is not an accepted field`, errors: [{ field: key, message: `${key} is not an accepted field` }] });
    expect((await http.get('/api/devices/greenhouse-001', admin)).body.data).toEqual(before);
  });

  it('a harmless "constructor" value is an ordinary unknown key', async () => {
    const res = await http.request('POST', '/api/devices/fan-1/control', { rawBody: '{"action":"on","constructor":1}', token: admin });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid body: constructor is not an accepted field');
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
