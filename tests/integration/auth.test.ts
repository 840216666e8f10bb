import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { signWithGatewaySecret } from '../support/tokens.ts';

let gw: TestGateway;
let http: HttpClient;
let adminToken: string;

beforeAll(async () => {
  gw = await startTestGateway({ loginRateLimit: { max: 5, windowMs: 60_000 } });
  http = httpClient(gw.url);
  adminToken = await registerUser(http, { username: 'alice', role: 'viewer' });
});
afterAll(() => gw.dispose());

const userCount = () => (gw.database.sqlite.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;

describe('register', () => {
  it('makes the first account admin whatever it asked for, with a session in data and at top level', async () => {
    const me = await http.get('/api/auth/me', adminToken);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ username: 'alice', role: 'admin', greenhouseAccess: [{ greenhouseId: 'greenhouse-001' }] });
    expect(me.body.data.preferences).toEqual({ alertNotifications: true, emailNotifications: false, theme: 'light' });
    expect(me.body.data).not.toHaveProperty('passwordHash');
  });

  // Registration is by approval by default: a self-registered account is a viewer that asks
  // for a role (operator by default) until an admin grants it.
  it('registers a viewer asking for operator by default and answers token and user', async () => {
    const res = await http.post('/api/auth/register', { username: 'bob', email: 'bob@example.com', password: 'correct-horse-1' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.data.token).toBe(res.body.token);
    expect(res.body.user).toMatchObject({ username: 'bob', role: 'viewer', requestedRole: 'operator', email: 'bob@example.com' });
    expect(res.body.user.lastLogin).toEqual(expect.any(String));
  });

  it('"Last Login" is the sign-in before this one: previousLogin moves on at each sign-in', async () => {
    const registered = await http.post('/api/auth/register', { username: 'dana', email: 'dana@example.com', password: 'correct-horse-1' });
    expect(registered.body.user.previousLogin).toBeNull();
    const first = await http.post('/api/auth/login', { username: 'dana', password: 'correct-horse-1' });
    expect(first.status).toBe(200);
    expect(first.body.user.previousLogin).toBe(registered.body.user.lastLogin);
    const second = await http.post('/api/auth/login', { username: 'dana', password: 'correct-horse-1' });
    expect(second.body.user.previousLogin).toBe(first.body.user.lastLogin);
    const me = await http.get('/api/auth/me', second.body.token);
    expect(me.body.data).toMatchObject({ lastLogin: second.body.user.lastLogin, previousLogin: first.body.user.lastLogin });
  });

  it('refuses self-registration as admin once an account exists (403) and creates nothing', async () => {
    const before = userCount();
    const res = await http.post('/api/auth/register', { username: 'mallory', email: 'm@example.com', password: 'correct-horse-1', role: 'admin' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, message: expect.stringMatching(/admin/i) });
    expect(userCount()).toBe(before);
  });

  it('lets a signed-in admin create an admin, but not an operator', async () => {
    const operator = await registerUser(http, { username: 'olga', role: 'operator' });
    const refused = await http.request('POST', '/api/auth/register', {
      body: { username: 'eve', email: 'e@example.com', password: 'correct-horse-1', role: 'admin' },
      token: operator,
    });
    expect(refused.status).toBe(403);
    const created = await http.request('POST', '/api/auth/register', {
      body: { username: 'carol', email: 'c@example.com', password: 'correct-horse-1', role: 'admin' },
      token: adminToken,
    });
    expect(created.status).toBe(201);
    expect(created.body.user.role).toBe('admin');
  });

  it('refuses a duplicate username, ignoring case (409)', async () => {
    const before = userCount();
    const res = await http.post('/api/auth/register', { username: 'BOB', email: 'x@example.com', password: 'correct-horse-1' });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already taken/);
    expect(userCount()).toBe(before);
  });

  it.each([
    [{ email: 'a@example.com', password: 'correct-horse-1' }, 'username'],
    [{ username: 'dave', password: 'correct-horse-1' }, 'email'],
    [{ username: 'dave', email: 'a@example.com' }, 'password'],
    [{ username: 'dave', email: 'not-an-email', password: 'correct-horse-1' }, 'email'],
    [{ username: 'dave', email: 'a@example.com', password: 'short' }, 'password'],
    [{ username: 42, email: 'a@example.com', password: 'correct-horse-1' }, 'username'],
    [{ username: "x'; DROP TABLE users; --", email: 'a@example.com', password: 'correct-horse-1' }, 'username'],
    [{ username: 'dave', email: 'a@example.com', password: 'correct-horse-1', role: 'superuser' }, 'role'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const before = userCount();
    const res = await http.post('/api/auth/register', body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain(field);
    expect(userCount()).toBe(before);
  });
});

describe('login', () => {
  it('signs in and records the login time', async () => {
    const res = await http.post('/api/auth/login', { username: 'bob', password: 'correct-horse-1' });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.data.user.username).toBe('bob');
  });

  it('answers 401 with one message for a wrong password and for an unknown user', async () => {
    const wrong = await http.post('/api/auth/login', { username: 'bob', password: 'wrong-password' });
    const unknown = await http.post('/api/auth/login', { username: 'nobody', password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe('Invalid username or password');
    expect(unknown.body.message).toBe('Invalid username or password');
  });

  it('treats SQL-looking input as plain text', async () => {
    const res = await http.post('/api/auth/login', { username: "' OR '1'='1", password: "' OR '1'='1" });
    expect(res.status).toBe(401);
    expect(userCount()).toBeGreaterThan(0);
  });

  it('refuses missing fields and wrong types with a 400 naming the field', async () => {
    const missing = await http.post('/api/auth/login', { username: 'bob' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('password');
    const wrongType = await http.post('/api/auth/login', { username: ['bob'], password: 'x' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain('username');
  });

  it('rate-limits failed sign-ins per client (429) and then refuses even the right password', async () => {
    const limited = await startTestGateway({ loginRateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const client = httpClient(limited.url);
      await registerUser(client, { username: 'root' });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await client.post('/api/auth/login', { username: 'root', password: 'bad-guess-' + i })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const right = await client.post('/api/auth/login', { username: 'root', password: 'correct-horse-1' });
      expect(right.status).toBe(429);
      expect(right.body.message).toMatch(/try again in \d+ seconds/);

      // Another account on the same client is not locked out by root's failures...
      await registerUser(client, { username: 'other' });
      expect((await client.post('/api/auth/login', { username: 'other', password: 'correct-horse-1' })).status).toBe(200);
      // ...but guessing across usernames from one client stops at three times the per-account bound
      // (9 failures: root's 3 plus 6 more).
      const spread: number[] = [];
      for (let i = 0; i < 7; i++) spread.push((await client.post('/api/auth/login', { username: `guess${i}`, password: 'bad-guess' })).status);
      expect(spread).toEqual([401, 401, 401, 401, 401, 401, 429]);
      expect((await client.post('/api/auth/login', { username: 'other', password: 'correct-horse-1' })).status).toBe(429);
    } finally {
      await limited.dispose();
    }
  });
});

describe('tokens', () => {
  it('refuses no token, a tampered token and an expired token with 401', async () => {
    expect((await http.get('/api/auth/me')).status).toBe(401);
    const [header, payload, signature] = adminToken.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'admin', sub: '2' })).toString('base64url');
    const tampered = await http.get('/api/auth/me', `${header}.${forged}.${signature}`);
    expect(tampered.status).toBe(401);
    expect(tampered.body.message).toMatch(/token/i);

    // Signed with the gateway's own secret, so only the expiry is wrong.
    const nowS = Math.floor(Date.now() / 1000);
    const expired = signWithGatewaySecret(gw.dataDir, { sub: '1', username: 'alice', role: 'admin', tv: 0, iat: nowS - 90_000, exp: nowS - 3_600 });
    const res = await http.get('/api/auth/me', expired);
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/i);
  });

  it('issues tokens that expire after 24 hours', async () => {
    const [, payload] = adminToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(24 * 3600);
  });

  it('keeps the generated JWT secret in the data dir with mode 0600', () => {
    const mode = statSync(join(gw.dataDir, 'jwt-secret')).mode & 0o777;
    expect(mode).toBe(0o600);
  });

  it('refreshes a session with a fresh token, and the old one stops working', async () => {
    const signedIn = (await http.post('/api/auth/login', { username: 'alice', password: 'correct-horse-1' })).body.token as string;
    const res = await http.post('/api/auth/refresh', undefined, signedIn);
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect((await http.get('/api/auth/me', res.body.token)).status).toBe(200);
    expect((await http.get('/api/auth/me', signedIn)).status).toBe(401);
    expect((await http.post('/api/auth/refresh', undefined, signedIn)).status).toBe(401);
  });
});

describe('profile and password', () => {
  // Bodies are strict, so a username in a profile body is refused (400 naming it) instead of
  // being ignored; the profile is unchanged, and the same body without it is accepted.
  it('updates email and preferences, and refuses a username change naming the field', async () => {
    const token = await registerUser(http, { username: 'pat' }, adminToken);
    const refused = await http.put('/api/auth/profile', { email: 'pat@new.example', preferences: { theme: 'dark' }, username: 'hacker' }, token);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/username/);
    expect((await http.get('/api/auth/me', token)).body.data).toMatchObject({ username: 'pat', email: 'pat@example.com', preferences: { theme: 'light' } });
    const res = await http.put('/api/auth/profile', { email: 'pat@new.example', preferences: { theme: 'dark' } }, token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Profile updated successfully');
    expect(res.body.data).toMatchObject({ username: 'pat', email: 'pat@new.example', preferences: { theme: 'dark', alertNotifications: true } });
  });

  it('refuses a bad email or theme and changes nothing', async () => {
    const token = await registerUser(http, { username: 'quinn' }, adminToken);
    for (const [body, field] of [
      [{ email: 'nope' }, 'email'],
      [{ preferences: { theme: 'neon' } }, 'theme'],
      [{ preferences: { alertNotifications: 'yes' } }, 'alertNotifications'],
    ] as const) {
      const res = await http.put('/api/auth/profile', body, token);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    }
    const me = await http.get('/api/auth/me', token);
    expect(me.body.data.email).toBe('quinn@example.com');
    expect(me.body.data.preferences.theme).toBe('light');
  });

  it.each(['PUT /api/auth/password', 'POST /api/auth/change-password'])('changes the password through %s and revokes older tokens', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const username = `pw${method.toLowerCase()}`;
    const token = await registerUser(http, { username }, adminToken);
    const wrong = await http.request(method, path, { body: { currentPassword: 'not-it-at-all', newPassword: 'brand-new-pass' }, token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('currentPassword');
    const res = await http.request(method, path, { body: { currentPassword: 'correct-horse-1', newPassword: 'brand-new-pass' }, token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Password updated successfully');
    expect((await http.get('/api/auth/me', token)).status).toBe(401);
    expect((await http.get('/api/auth/me', res.body.token)).status).toBe(200);
    expect((await http.post('/api/auth/login', { username, password: 'correct-horse-1' })).status).toBe(401);
    expect((await http.post('/api/auth/login', { username, password: 'brand-new-pass' })).status).toBe(200);
  });
});
