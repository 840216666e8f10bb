import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { SETUP_CODE_FILE } from '../../server/auth/setup-code.ts';
import { ConfigError, loadConfig } from '../../server/config/load.ts';
import { WS_CLOSE_FORBIDDEN, WS_CLOSE_TRY_AGAIN_LATER, WS_CLOSE_UNAUTHORIZED } from '../../server/contract/realtime.ts';
import { databaseChecksum } from '../support/db-checksum.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { setupCodeOf } from '../support/setup-code.ts';
import { TestSocket } from '../support/ws.ts';

/**
 * Access (first run, pending accounts, sessions), as an attacker on the same LAN tries it: over real HTTP and websockets against
 * the real gateway, some of it from other loopback addresses (127.0.0.x) standing in for other
 * machines.
 */
const GH = 'greenhouse-001';
const PASSWORD = 'correct-horse-1';
const userCount = (gw: TestGateway) => (gw.database.sqlite.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;

/** One HTTP request from a chosen local address (another machine on the LAN, as the gateway sees it). */
function requestFrom(url: string, localAddress: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: any; headers: Record<string, unknown> }>((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(`${url}${path}`, {
      method,
      localAddress,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
    }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('first run', () => {
  let gw: TestGateway;
  let http: HttpClient;
  beforeAll(async () => {
    gw = await startTestGateway({}, { clock: new ManualClock() });
    http = httpClient(gw.url);
  });
  afterAll(() => gw.dispose());

  it('keeps the setup code in the data dir (0600, data dir 0700) and refuses a sign-up without it', async () => {
    const path = join(gw.dataDir, SETUP_CODE_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(gw.dataDir).mode & 0o777).toBe(0o700);
    const before = databaseChecksum(gw);
    for (const setupCode of [undefined, 'WRONG-CODE-123', '']) {
      const res = await http.post('/api/auth/register', { username: 'intruder', email: 'i@example.com', password: PASSWORD, role: 'viewer', ...(setupCode === undefined ? {} : { setupCode }) });
      expect(res.status).toBe(403);
      expect(res.body.message).toContain(SETUP_CODE_FILE);
    }
    expect(databaseChecksum(gw)).toBe(before);
  });

  it('eight sign-ups racing with the code make exactly one admin; the others are told it exists', async () => {
    const code = setupCodeOf(gw.url)!;
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      http.post('/api/auth/register', { username: `racer${i}`, email: `r${i}@example.com`, password: PASSWORD, setupCode: code })));
    const created = results.filter((r) => r.status === 201);
    const firstAdmins = created.filter((r) => r.body.user.role === 'admin');
    expect(firstAdmins).toHaveLength(1);
    expect(firstAdmins[0]!.body.user).toMatchObject({ pending: false });
    // A sign-up that raced the first one is told the administrator exists. One that only arrives once
    // it exists (a loaded machine can serve the first sign-up's hash before the last request is read)
    // is an ordinary self-registration, the spent code ignored: a viewer waiting for approval.
    const late = created.filter((r) => r !== firstAdmins[0]);
    for (const res of late) expect(res.body.user).toMatchObject({ role: 'viewer', pending: true });
    expect(results.filter((r) => r.status === 409)).toHaveLength(7 - late.length);
    expect(userCount(gw)).toBe(1 + late.length);
    const admins = gw.database.sqlite.prepare("SELECT count(*) AS n FROM users WHERE role = 'admin'").get() as { n: number };
    expect(admins.n).toBe(1);
    // The code is spent: its file is gone, and the field is accepted and ignored from now on.
    expect(existsSync(join(gw.dataDir, SETUP_CODE_FILE))).toBe(false);
    const later = await http.post('/api/auth/register', { username: 'later', email: 'l@example.com', password: PASSWORD, setupCode: code });
    expect(later.status).toBe(201);
    expect(later.body.user).toMatchObject({ role: 'viewer', pending: true });
  });

  it('the anonymous sign-up of the finding cannot touch the pump limits', async () => {
    const signUp = await http.post('/api/auth/register', { username: 'takeover', email: 't@example.com', password: PASSWORD, role: 'operator' });
    expect(signUp.status).toBe(201);
    const before = databaseChecksum(gw);
    const res = await http.put(`/api/settings/${GH}/devices`, { deviceSettings: { pumpMaxRunSeconds: 3600 } }, signUp.body.token);
    expect(res.status).toBe(403);
    expect(databaseChecksum(gw)).toBe(before);
  });
});

describe('a pending account, sessions and passwords', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let pending: string;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    gw = await startTestGateway({}, { clock: new ManualClock() });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'boss' });
    pending = await registerUser(http, { username: 'newbie', role: 'viewer' });
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await gw.dispose();
  });

  it('sees its own profile and status, and nothing else: 403 over HTTP, metrics, exports and previews', async () => {
    const me = await http.get('/api/auth/me', pending);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ username: 'newbie', pending: true, requestedRole: 'viewer' });
    for (const path of [
      `/api/devices/${GH}`,
      `/api/settings/${GH}`,
      `/api/sensors/latest/${GH}`,
      `/api/alerts/${GH}`,
      '/api/metrics',
      `/api/analytics/export/${GH}?hours=24`,
      `/api/alerts/export/${GH}`,
      '/api/users',
    ]) {
      const res = await http.get(path, pending);
      expect(res.status, path).toBe(403);
      expect(res.body.message, path).toMatch(/approve/);
    }
    const preview = await http.post('/api/devices/fan-1/automation/preview', { automationRules: { temperatureHigh: 30 }, hours: 1 }, pending);
    expect(preview.status).toBe(403);
    // Not even where its CRITICAL alert e-mail would go.
    const before = databaseChecksum(gw);
    expect((await http.put('/api/auth/profile', { email: 'attacker@evil.example', preferences: { emailNotifications: true } }, pending)).status).toBe(403);
    expect(databaseChecksum(gw)).toBe(before);
  });

  it('gets no live stream: the socket closes with 4403', async () => {
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.opened();
    socket.send('authenticate', { token: pending });
    expect(await socket.closed()).toBe(WS_CLOSE_FORBIDDEN);
    const withHeader = new TestSocket(gw.url, { authorization: `Bearer ${pending}` });
    sockets.push(withHeader);
    expect(await withHeader.closed()).toBe(WS_CLOSE_FORBIDDEN);
  });

  it('sign-out revokes that token (HTTP and its sockets) and only that one, across a restart too', async () => {
    const phone = (await http.post('/api/auth/login', { username: 'boss', password: PASSWORD })).body.token as string;
    const laptop = (await http.post('/api/auth/login', { username: 'boss', password: PASSWORD })).body.token as string;
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(laptop);
    const out = await http.post('/api/auth/logout', undefined, laptop);
    expect(out.status).toBe(200);
    expect(out.body.message).toBe('Logged out successfully');
    expect(await socket.closed()).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await http.get('/api/auth/me', laptop)).status).toBe(401);
    expect((await http.post('/api/auth/refresh', undefined, laptop)).status).toBe(401);
    expect((await http.get('/api/auth/me', phone)).status).toBe(200);

    // A refresh revokes the old token for new requests but keeps its socket: the session goes on.
    const tablet = (await http.post('/api/auth/login', { username: 'boss', password: PASSWORD })).body.token as string;
    const tabletSocket = new TestSocket(gw.url);
    sockets.push(tabletSocket);
    await tabletSocket.join(tablet);
    expect((await http.post('/api/auth/refresh', undefined, tablet)).status).toBe(200);
    expect((await http.get('/api/auth/me', tablet)).status).toBe(401);
    const from = tabletSocket.messages.length;
    tabletSocket.send('join-greenhouse', GH);
    await tabletSocket.next('greenhouse-joined', () => true, 5000, from);
    expect(tabletSocket.closeCode).toBeNull();

    // A restart on the same data dir does not bring the signed-out token back.
    const dataDir = gw.dataDir;
    await gw.stop();
    gw = await startTestGateway({ dataDir }, { clock: new ManualClock() });
    http = httpClient(gw.url);
    expect((await http.get('/api/auth/me', laptop)).status).toBe(401);
    expect((await http.get('/api/auth/me', phone)).status).toBe(200);
  });

  it.each([
    ['password', '10 characters'],
    ['          ', 'one character repeated'],
    ['aaaaaaaaaaaa', 'one character repeated'],
    ['password123!', 'too common'],
    ['1234567890', 'too common'],
    ['Qwertyuiop', 'too common'],
    ['greenhouse2024', 'too common'],
    ['ivanivanov', 'username'],
    ['IvanIvanov99', 'username'],
  ])('refuses the password %j (400 naming password: %s) and creates nothing', async (password, why) => {
    const before = userCount(gw);
    const res = await http.post('/api/users', { username: 'ivanivanov', email: 'iv@example.com', password, role: 'viewer' }, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/password/);
    expect(res.body.message).toContain(why);
    const selfService = await http.post('/api/auth/register', { username: 'ivanivanov', email: 'iv@example.com', password });
    expect(selfService.status).toBe(400);
    expect(userCount(gw)).toBe(before);
  });

  it('refuses a weak new password on change, naming newPassword', async () => {
    const res = await http.put('/api/auth/password', { currentPassword: PASSWORD, newPassword: 'iloveyou12345' }, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/newPassword.*too common/);
    expect((await http.post('/api/auth/login', { username: 'boss', password: PASSWORD })).status).toBe(200);
  });
});

describe('sign-in guessing from several addresses', () => {
  let gw: TestGateway;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock();
    gw = await startTestGateway({}, { clock });
    await registerUser(httpClient(gw.url), { username: 'boss' });
  });
  afterAll(() => gw.dispose());

  it('meets an account-wide back-off, never a permanent lock', async () => {
    const statuses: number[] = [];
    for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) {
      for (let i = 0; i < 6; i++) {
        statuses.push((await requestFrom(gw.url, address, 'POST', '/api/auth/login', { body: { username: 'boss', password: `guess-${address}-${i}` } })).status);
      }
    }
    // No address reached its own limit (10), but the account did: the 11th failure starts the back-off.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toContain(429);
    // From a fifth address, even the right password waits...
    const waiting = await requestFrom(gw.url, '127.0.0.5', 'POST', '/api/auth/login', { body: { username: 'boss', password: PASSWORD } });
    expect(waiting.status).toBe(429);
    expect(waiting.body.message).toMatch(/try again in \d+ seconds/);
    // ...but only for a while: the back-off is capped (15 min) and then the owner gets in.
    clock.advance(15 * 60_000 + 1000);
    expect((await requestFrom(gw.url, '127.0.0.5', 'POST', '/api/auth/login', { body: { username: 'boss', password: PASSWORD } })).status).toBe(200);
  });
});

describe('connections, hosts and headers', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  const logLines: string[] = [];
  beforeAll(async () => {
    const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { logLines.push(chunk.toString()); done(); } }));
    gw = await startTestGateway(
      { allowedHosts: ['greenhouse.lan'], limits: { websocketsPerAccount: 20, websocketsTotal: 16, anonymousWebsocketsPerAddress: 3, connectionsTotal: 1000, connectionsPerAddress: 12, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5000, maxDevices: 100 } },
      { clock: new ManualClock(), logger },
    );
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'boss' });
  });
  afterAll(() => gw.dispose());

  it('refuses a Host that is not the gateway\'s with 421 (DNS rebinding), on the API, the dashboard and /ws', async () => {
    const as = (host: string, path = `/api/devices/${GH}`) => requestFrom(gw.url, '127.0.0.1', 'GET', path, { headers: { host, authorization: `Bearer ${admin}` } });
    const rebound = await as('attacker.example:8080');
    expect(rebound.status).toBe(421);
    expect(JSON.stringify(rebound.body)).not.toContain('pump');
    expect((await as('attacker.example', '/')).status).toBe(421);
    const port = new URL(gw.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'greenhouse.lan', `GREENHOUSE.LAN:${port}`, '[::1]:8080']) {
      expect((await as(host)).status, host).toBe(200);
    }
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/ws`, { headers: { host: 'attacker.example' } });
    const refused = await new Promise<number>((resolve) => {
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
      socket.on('error', () => resolve(-1));
    });
    expect(refused).toBe(421);
  });

  it('marks every /api answer Cache-Control: no-store, errors included', async () => {
    for (const res of [await http.get('/api/auth/me', admin), await http.get('/api/health'), await http.get('/api/nope'), await http.get('/api/auth/me')]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('tells an anonymous /api/health caller only ok or degraded and whether the database works; a signed-in account gets the details', async () => {
    const anonymous = await http.get('/api/health');
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.body.data)).toEqual(['status', 'database']);
    expect(anonymous.body.data.database).toEqual({ ok: true });
    expect(anonymous.body.data.status).toMatch(/^(ok|degraded)$/);
    const signedIn = await http.get('/api/health', admin);
    expect(signedIn.body.data).toHaveProperty('drivers');
    expect(signedIn.body.data).toHaveProperty('version');
  });

  it('caps anonymous websockets per address, so they cannot keep a signed-in account out', async () => {
    const flood = Array.from({ length: 6 }, () => new TestSocket(gw.url));
    await Promise.all(flood.map((s) => s.until(() => (s.socket.readyState === WebSocket.OPEN || s.closeCode !== null ? true : undefined), 5000, 'open or close')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const held = flood.filter((s) => s.closeCode === null);
    expect(held).toHaveLength(3);
    expect(flood.filter((s) => s.closeCode === WS_CLOSE_TRY_AGAIN_LATER)).toHaveLength(3);
    // The admin still gets in, from the same address with the token on the upgrade, or from elsewhere.
    const adminSocket = new TestSocket(gw.url, { authorization: `Bearer ${admin}` });
    await adminSocket.next('authenticated');
    const elsewhere = new WebSocket(`${gw.url.replace('http', 'ws')}/ws`, { localAddress: '127.0.0.9' });
    await new Promise((resolve, reject) => {
      elsewhere.once('open', resolve);
      elsewhere.once('error', reject);
    });
    elsewhere.send(JSON.stringify({ event: 'authenticate', data: { token: admin } }));
    const answer = await new Promise<string>((resolve) => elsewhere.once('message', (raw) => resolve(raw.toString())));
    expect(JSON.parse(answer).event).toBe('authenticated');
    elsewhere.close();
    adminSocket.close();
    flood.forEach((s) => s.close());
  });

  it('drops slow-header connections beyond the per-address cap, and health still answers everyone else', async () => {
    const slow = Array.from({ length: 20 }, () => {
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(gw.url).port), localAddress: '127.0.0.7' });
      socket.on('error', () => {});
      socket.on('connect', () => socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
      return socket;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const dropped = slow.filter((s) => s.destroyed || s.readyState === 'closed' || s.readableEnded);
    expect(dropped.length).toBeGreaterThanOrEqual(8);
    const probes: number[] = [];
    for (let i = 0; i < 30; i++) probes.push((await http.get('/api/health')).status);
    expect(probes).toEqual(Array(30).fill(200));
    slow.forEach((s) => s.destroy());
  });

  it('logs no stack trace for an oversized frame from an unauthenticated socket', async () => {
    const before = logLines.length;
    const socket = new TestSocket(gw.url);
    await socket.opened();
    socket.socket.send('x'.repeat(70 * 1024));
    expect(await socket.closed()).toBe(1009);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const written = logLines.slice(before).join('');
    expect(written).not.toMatch(/"stack"|\n\s+at /);
    expect((await http.get('/api/health')).status).toBe(200);
  });
});

describe('the config file', () => {
  it('refuses unknown keys, naming each (and the key probably meant)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenhouse-config-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ registation: 'closed', limits: { websocketsTotl: 5 }, mqtt: { homeAssistant: { discovry: false } }, outputs: [{ outputId: 'r', kind: 'relay', pin: 17, type: 'FAN', actveLow: true }] }));
      let problems: string[] = [];
      try {
        loadConfig({ GREENHOUSE_CONFIG: file, GREENHOUSE_DATA_DIR: dir });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        problems = (err as ConfigError).problems;
      }
      expect(problems).toEqual(expect.arrayContaining([
        'registation: unknown key (did you mean "registration"?)',
        'limits.websocketsTotl: unknown key (did you mean "websocketsTotal"?)',
        'mqtt.homeAssistant.discovry: unknown key (did you mean "discovery"?)',
        'outputs.0.actveLow: unknown key (did you mean "activeLow"?)',
      ]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
