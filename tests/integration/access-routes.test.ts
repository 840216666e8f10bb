import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { databaseChecksum } from '../support/db-checksum.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { listRoutes, type RouteInfo } from '../support/routes.ts';
import { TestSocket } from '../support/ws.ts';
import { WS_CLOSE_FORBIDDEN } from '../../server/contract/realtime.ts';

/**
 * As an attacker on the LAN tries it over real HTTP: every route that changes something,
 * called by a viewer, by a self-registered account that only asked for a role, and (for the admin's
 * routes) by an operator; then a typo on every body. Each refusal must change nothing stored.
 */
const GH = 'greenhouse-001';
const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/** What any signed-in account may do to itself, or what needs no account at all. */
const SELF_SERVICE = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'PUT /api/auth/profile',
  'PUT /api/auth/password',
  'POST /api/auth/change-password',
]);
/** POSTs that change nothing (docs/decisions.md: the rule preview replays history, touching nothing): open to every account. */
/**
 * Mutating routes a viewer may call: a preview changes nothing, and a phone's own alert subscription
 * (docs/https.md) is the viewer's own, like its profile. A pending account may call none of them.
 */
const OPEN_TO_VIEWERS = new Set([
  'POST /api/devices/:greenhouseId|:deviceId/automation/preview',
  'POST /api/push/subscriptions',
  'DELETE /api/push/subscriptions',
  'POST /api/push/test',
]);
/** Routes only an admin may call (docs/decisions.md, Users and roles); the rest of the mutating ones need an operator. */
const ADMIN_ONLY = [/^\/api\/users/, /^\/api\/settings\/:greenhouseId\/(system|devices|reset)$/, /^\/api\/simulator/];

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let operator: string;
let viewer: string;
let pending: string;
let mutating: RouteInfo[];

function fill(url: string): string {
  return url
    .replace(':greenhouseId|:deviceId', 'pump-1')
    .replace(':greenhouseId|:id', '1')
    .replace(':greenhouseId', GH)
    .replace(':deviceId', 'pump-1')
    .replace(':username', 'boss')
    .replace(':id', '1');
}

beforeAll(async () => {
  gw = await startTestGateway({}, { clock: new ManualClock() });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'boss' });
  operator = await registerUser(http, { username: 'olga', role: 'operator' }, admin);
  viewer = await registerUser(http, { username: 'victor', role: 'viewer' }, admin);
  // Self-registered, asking for operator: a viewer until an admin grants it.
  pending = await registerUser(http, { username: 'mallory', role: 'operator' });
  // Something for the alert routes to act on.
  expect((await http.post(`/api/alerts/${GH}`, { alertType: 'TEST', severity: 'LOW', message: 'probe' }, admin)).status).toBe(201);
  mutating = listRoutes(gw.app).filter((r) => MUTATING.has(r.method) && r.url.startsWith('/api/') && !SELF_SERVICE.has(`${r.method} ${r.url}`));
});
afterAll(() => gw.dispose());

describe('who may change what', () => {
  it('finds the mutating routes, the users API among them', () => {
    expect(mutating.length).toBeGreaterThanOrEqual(20);
    expect(mutating.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['POST /api/users', 'PUT /api/users/:username', 'DELETE /api/users/:username']));
  });

  it('answers the self-registered account as the viewer it is, with the role it asked for pending', async () => {
    const me = (await http.get('/api/auth/me', pending)).body.data;
    expect(me).toMatchObject({ username: 'mallory', role: 'viewer', requestedRole: 'operator' });
  });

  for (const who of ['viewer', 'pending'] as const) {
    it(`refuses every mutating route to a ${who === 'viewer' ? 'viewer' : 'self-registered, unapproved account'} (403) and changes nothing`, async () => {
      const token = who === 'viewer' ? viewer : pending;
      for (const route of mutating) {
        const before = databaseChecksum(gw);
        const res = await http.request(route.method, fill(route.url), { token, ...(route.method === 'DELETE' ? {} : { body: {} }) });
        // A pending account may not even preview (access-first-run-sessions.test.ts): everything is 403 to it.
        if (who === 'viewer' && OPEN_TO_VIEWERS.has(`${route.method} ${route.url}`)) {
          expect(res.status, `${route.method} ${route.url}`).toBeLessThan(500);
        } else {
          expect(res.status, `${route.method} ${route.url}`).toBe(403);
        }
        expect(databaseChecksum(gw), `${route.method} ${route.url} changed the database`).toBe(before);
      }
    });
  }

  it('refuses the admin-only routes to an operator (403) and changes nothing', async () => {
    const adminOnly = mutating.filter((r) => ADMIN_ONLY.some((pattern) => pattern.test(r.url)));
    expect(adminOnly.length).toBeGreaterThanOrEqual(7);
    for (const route of adminOnly) {
      const before = databaseChecksum(gw);
      const res = await http.request(route.method, fill(route.url), { token: operator, ...(route.method === 'DELETE' ? {} : { body: {} }) });
      expect(res.status, `${route.method} ${route.url}`).toBe(403);
      expect(databaseChecksum(gw)).toBe(before);
    }
    // What the attacker did with an operator token: none of it works any more.
    const attacks = [
      http.put(`/api/settings/${GH}/devices`, { deviceSettings: { tankLowLevelCm: 0, pumpMaxRunSeconds: 3600 } }, operator),
      http.put(`/api/settings/${GH}/system`, { systemSettings: { dataRetentionDays: 1 } }, operator),
      http.post(`/api/settings/${GH}/reset`, undefined, operator),
      http.get('/api/users', operator),
    ];
    for (const res of await Promise.all(attacks)) expect(res.status).toBe(403);
  });

  it('lets the operator change what operators change (thresholds, devices)', async () => {
    expect((await http.put(`/api/settings/${GH}/thresholds`, { alertThresholds: { temperature: { high: 33 } } }, operator)).status).toBe(200);
    expect((await http.put('/api/devices/fan-1', { deviceName: 'Side fan' }, operator)).status).toBe(200);
  });

  it('refuses websocket device control to the viewer; the unapproved account gets no socket at all', async () => {
    const socket = new TestSocket(gw.url);
    await socket.join(viewer);
    socket.send('device-control', { deviceId: 'heater-1', action: 'on', greenhouseId: GH });
    expect(await socket.next('error')).toMatchObject({ status: 403 });
    socket.close();
    const pendingSocket = new TestSocket(gw.url);
    await pendingSocket.opened();
    pendingSocket.send('authenticate', { token: pending });
    expect(await pendingSocket.closed()).toBe(WS_CLOSE_FORBIDDEN);
    expect((await http.get(`/api/devices/${GH}`, admin)).body.data.find((d: any) => d.deviceId === 'heater-1').status).toBe('OFF');
  });
});

describe('a typo on every body is a 400 naming it, and changes nothing', () => {
  // One valid body per route, so the only thing wrong is the misspelt key (top level and nested).
  const cases: Array<[method: string, path: string, body: Record<string, unknown>, typo: string]> = [
    ['PUT', '/api/devices/fan-1', { deviceNmae: 'Renamed' }, 'deviceNmae'],
    ['POST', '/api/devices', { deviceName: 'X', deviceId: 'x-1', deviceType: 'FAN', locaton: 'North' }, 'locaton'],
    ['POST', '/api/devices/fan-1/automation', { automationRules: { temperatureHihg: 30 } }, 'automationRules.temperatureHihg'],
    ['POST', '/api/devices/fan-1/automation', { autoMod: true }, 'autoMod'],
    ['POST', '/api/devices/fan-1/control', { action: 'on', force: true }, 'force'],
    ['POST', '/api/devices/fan-1/toggle', { now: true }, 'now'],
    ['POST', `/api/devices/actions/turn-off-all/${GH}`, { everything: true }, 'everything'],
    ['PUT', `/api/settings/${GH}/system`, { systemSettings: { dataRetentionDay: 7 } }, 'systemSettings.dataRetentionDay'],
    ['PUT', `/api/settings/${GH}/devices`, { deviceSettings: { pumpMaxRunSecond: 60 } }, 'deviceSettings.pumpMaxRunSecond'],
    ['PUT', `/api/settings/${GH}/thresholds`, { alertThresholds: { temperature: { hihg: 30 } } }, 'alertThresholds.temperature.hihg'],
    ['POST', `/api/settings/${GH}/reset`, { confirm: true }, 'confirm'],
    ['POST', `/api/alerts/${GH}`, { alertType: 'X', severity: 'LOW', message: 'm', severty: 'HIGH' }, 'severty'],
    ['PUT', '/api/alerts/1/resolve', { actionTakne: 'done' }, 'actionTakne'],
    ['POST', '/api/users', { username: 'newbie', email: 'n@example.com', password: 'correct-horse-1', role: 'viewer', isAdmin: true }, 'isAdmin'],
    ['PUT', '/api/users/victor', { role: 'operator', approved: true }, 'approved'],
    ['PUT', '/api/auth/profile', { email: 'boss@example.com', prefernces: {} }, 'prefernces'],
    ['PUT', '/api/auth/password', { currentPassword: 'correct-horse-1', newPassword: 'correct-horse-2', confirm: 'x' }, 'confirm'],
    ['POST', '/api/auth/register', { username: 'typo', email: 't@example.com', password: 'correct-horse-1', rol: 'admin' }, 'rol'],
    ['POST', '/api/auth/login', { username: 'boss', password: 'correct-horse-1', remember: true }, 'remember'],
  ];
  for (const [method, path, body, typo] of cases) {
    it(`${method} ${path} with ${typo}`, async () => {
      const before = databaseChecksum(gw);
      const res = await http.request(method, path, { token: admin, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(typo);
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: typo })]));
      expect(databaseChecksum(gw)).toBe(before);
    });
  }
});

describe('names without control or bidirectional characters', () => {
  for (const [label, name] of [
    ['a right-to-left override', 'Pump\u202Egnp.exe'],
    ['a bidi isolate', 'Fan\u2066x'],
    ['a zero-width joiner', 'He\u200Dater'],
    ['a NUL', 'Lamp\u0000'],
    ['a newline', 'Lamp\nrm -rf'],
    ['an escape sequence', 'Lamp\u001b[31m'],
  ] as const) {
    it(`refuses a device name with ${label} (400 naming deviceName)`, async () => {
      const before = databaseChecksum(gw);
      const add = await http.post('/api/devices', { deviceName: name, deviceId: 'bidi-1', deviceType: 'FAN' }, admin);
      expect(add.status).toBe(400);
      expect(add.body.message).toMatch(/deviceName.*control or bidirectional/);
      const rename = await http.put('/api/devices/fan-1', { deviceName: name }, admin);
      expect(rename.status).toBe(400);
      const alert = await http.post(`/api/alerts/${GH}`, { alertType: 'X', severity: 'LOW', message: name }, admin);
      expect(alert.status).toBe(400);
      expect(databaseChecksum(gw)).toBe(before);
    });
  }

  it('keeps accents and other scripts', async () => {
    const res = await http.put('/api/devices/fan-1', { deviceName: 'Ventilateur été ☀ 温室', location: 'Serre nord' }, admin);
    expect(res.status).toBe(200);
    expect(res.body.data.deviceName).toBe('Ventilateur été ☀ 温室');
  });

  it('usernames stay plain ASCII', async () => {
    const res = await http.post('/api/users', { username: 'adm\u202Ein', email: 'x@example.com', password: 'correct-horse-1', role: 'viewer' }, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/username/);
  });
});
