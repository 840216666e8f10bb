import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE_TOO_MANY, WS_CLOSE_TRY_AGAIN_LATER, WS_CLOSE_UNAUTHORIZED } from '../../server/contract/realtime.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { signWithGatewaySecret } from '../support/tokens.ts';
import { setupCodeOf } from '../support/setup-code.ts';
import { TestSocket } from '../support/ws.ts';

/** The caps, timeouts, headers and session limits, tried over real HTTP and websockets. */
const DAY_S = 24 * 3600;
const nowS = () => Math.floor(Date.now() / 1000);

describe('one gateway under attack', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let viewer: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({ limits: { websocketsPerAccount: 20, websocketsTotal: 200, anonymousWebsocketsPerAddress: 4, headersTimeoutMs: 500, keepAliveTimeoutMs: 5000, connectionsTotal: 1000, connectionsPerAddress: 64, maxDevices: 100 } });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'boss' });
    viewer = await registerUser(http, { username: 'victor', role: 'viewer' }, admin);
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await gw.dispose();
  });

  it('30 sockets on one token: 20 are served, the other 10 are closed with 4429; others still connect', async () => {
    // With the token on the upgrade (a script, not a browser): 30 unauthenticated sockets from one
    // address would meet the anonymous cap first (access-first-run-sessions.test.ts).
    const opened = Array.from({ length: 30 }, () => new TestSocket(gw.url, { authorization: `Bearer ${viewer}` }));
    sockets.push(...opened);
    await Promise.all(opened.map((s) => s.until(() => (s.messages.some((m) => m.event === 'authenticated') || s.closeCode !== null ? true : undefined), 8000, 'answer')));
    const refused = opened.filter((s) => s.closeCode === WS_CLOSE_TOO_MANY);
    const served = opened.filter((s) => s.closeCode === null && s.messages.some((m) => m.event === 'authenticated'));
    expect(refused).toHaveLength(10);
    expect(served).toHaveLength(20);
    // The gateway still answers everyone else.
    expect((await http.get('/api/health')).status).toBe(200);
    expect((await http.post('/api/auth/login', { username: 'boss', password: 'correct-horse-1' })).status).toBe(200);
    const other = new TestSocket(gw.url);
    sockets.push(other);
    await other.join(admin);
    // A freed place can be taken again.
    served[0]!.close();
    await served[0]!.closed();
    const again = new TestSocket(gw.url);
    sockets.push(again);
    await again.join(viewer);
    expect(again.closeCode).toBeNull();
  });

  it('a registration flood from one client: 10 accounts an hour, then 429', async () => {
    const results = [];
    for (let i = 0; i < 25; i++) {
      results.push((await http.post('/api/auth/register', { username: `flood${i}`, email: `f${i}@example.com`, password: 'correct-horse-1' })).status);
    }
    expect(results.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(results.slice(10)).toEqual(Array(15).fill(429));
    const count = gw.database.sqlite.prepare("SELECT count(*) AS n FROM users WHERE username LIKE 'flood%'").get() as { n: number };
    expect(count.n).toBe(10);
    // An admin creating accounts is not a self-registration.
    expect((await http.post('/api/users', { username: 'staff1', email: 's@example.com', password: 'correct-horse-1', role: 'operator' }, admin)).status).toBe(201);
  });

  it('security headers on every answer: the API, errors, unknown paths', async () => {
    for (const res of [await http.get('/api/health'), await http.get('/api/auth/me'), await http.get('/nope'), await http.post('/api/auth/login', { user: 1 })]) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('drops a client whose request headers never finish (slowloris)', async () => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(gw.url).port) });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const drip = setInterval(() => socket.write('a'), 100);
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
      socket.on('error', () => undefined);
    });
    clearInterval(drip);
    socket.destroy();
    expect(closed).toBe(true);
  });

  it('ends a session sessionMaxDays after the sign-in, however often it is refreshed', async () => {
    const me = (await http.get('/api/auth/me', admin)).body.data;
    const claims = { sub: me._id, username: 'boss', role: 'admin', tv: 0, jti: 'signed-by-the-test' };
    // Signed in 31 days ago, refreshed an hour ago: the token itself has not expired, the session has.
    const old = signWithGatewaySecret(gw.dataDir, { ...claims, sat: nowS() - 31 * DAY_S, iat: nowS() - 3600, exp: nowS() + 3600 });
    expect((await http.get('/api/auth/me', old)).status).toBe(401);
    const refresh = await http.post('/api/auth/refresh', undefined, old);
    expect(refresh.status).toBe(401);
    expect(refresh.body.message).toMatch(/expired/i);
    // Signed in 29.5 days ago: a refresh works, but the new token ends with the session, not 24 h later.
    const sat = nowS() - Math.round(29.5 * DAY_S);
    const late = signWithGatewaySecret(gw.dataDir, { ...claims, sat, iat: nowS() - 60, exp: nowS() + 3600 });
    const refreshed = await http.post('/api/auth/refresh', undefined, late);
    expect(refreshed.status).toBe(200);
    const payload = JSON.parse(Buffer.from(refreshed.body.token.split('.')[1], 'base64url').toString());
    expect(payload.sat).toBe(sat);
    expect(payload.exp).toBeLessThanOrEqual(sat + 30 * DAY_S);
    // A token without a session start is not one the gateway issued.
    const noStart = signWithGatewaySecret(gw.dataDir, { ...claims, iat: nowS(), exp: nowS() + 3600 });
    expect((await http.get('/api/auth/me', noStart)).status).toBe(401);
  });

  it('closes a socket when its token expires', async () => {
    // (The viewer's 20 places are taken by the test above.)
    const me = (await http.get('/api/auth/me', admin)).body.data;
    const shortLived = signWithGatewaySecret(gw.dataDir, { sub: me._id, username: 'boss', role: 'admin', tv: 0, jti: 'short-lived', sat: nowS(), iat: nowS(), exp: nowS() + 2 });
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(shortLived);
    expect(await socket.closed(10_000)).toBe(WS_CLOSE_UNAUTHORIZED);
  });
});

describe('the total socket cap', () => {
  let gw: TestGateway;
  afterAll(() => gw.dispose());

  it('closes sockets beyond the gateway total with 1013, whoever opens them', async () => {
    gw = await startTestGateway({ limits: { websocketsPerAccount: 20, websocketsTotal: 4, anonymousWebsocketsPerAddress: 4, headersTimeoutMs: 10000, keepAliveTimeoutMs: 5000, connectionsTotal: 1000, connectionsPerAddress: 64, maxDevices: 100 } });
    const token = await registerUser(httpClient(gw.url), { username: 'boss' });
    // One after another: unauthenticated sockets have a smaller cap of their own (access-first-run-sessions.test.ts).
    const opened: TestSocket[] = [];
    for (let i = 0; i < 4; i++) {
      opened.push(new TestSocket(gw.url));
      await opened.at(-1)!.join(token);
    }
    for (let i = 0; i < 2; i++) {
      opened.push(new TestSocket(gw.url, { authorization: `Bearer ${token}` }));
      expect(await opened.at(-1)!.closed()).toBe(WS_CLOSE_TRY_AGAIN_LATER);
    }
    opened.forEach((s) => s.close());
  });
});

describe('the demo account with demo off', () => {
  const gateways: TestGateway[] = [];
  afterEach(async () => {
    for (const gw of gateways.splice(0)) await gw.dispose();
  });

  it('no longer signs in, and its old tokens stop working, once the gateway restarts with demo off', async () => {
    const demoOn = await startTestGateway({ demo: true });
    const dataDir = demoOn.dataDir;
    const http = httpClient(demoOn.url);
    const login = await http.post('/api/auth/login', { username: 'admin', password: 'greenhouse' });
    expect(login.status).toBe(200);
    const oldToken = login.body.token as string;
    await demoOn.stop();

    const demoOff = await startTestGateway({ demo: false, dataDir });
    gateways.push(demoOff);
    const http2 = httpClient(demoOff.url);
    expect((await http2.get('/api/auth/demo')).body.data).toEqual({ enabled: false, setupRequired: false });
    expect((await http2.post('/api/auth/login', { username: 'admin', password: 'greenhouse' })).status).toBe(401);
    expect((await http2.post('/api/auth/login', { username: 'ADMIN', password: 'greenhouse' })).status).toBe(401);
    expect((await http2.get('/api/auth/me', oldToken)).status).toBe(401);
  });

  it('never accepts the demo password with demo off, even if an account was given it later', async () => {
    const gw = await startTestGateway({ demo: false });
    gateways.push(gw);
    const http = httpClient(gw.url);
    // The first account is named like the demo admin and tries the demo password: refused as too common.
    const refused = await http.post('/api/auth/register', { username: 'admin', email: 'a@example.com', password: 'greenhouse', setupCode: setupCodeOf(gw.url) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/password/);
    await registerUser(http, { username: 'admin' });
    expect((await http.post('/api/auth/login', { username: 'admin', password: 'greenhouse' })).status).toBe(401);
  });
});
