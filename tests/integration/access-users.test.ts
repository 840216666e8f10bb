import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE_FORBIDDEN, WS_CLOSE_UNAUTHORIZED } from '../../server/contract/realtime.ts';
import { databaseChecksum } from '../support/db-checksum.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { setupCodeOf } from '../support/setup-code.ts';
import { TestSocket } from '../support/ws.ts';

/** Registration by approval, the admin's users API, the last admin, revocation with sockets. */
const signUp = (http: HttpClient, username: string, role?: string) =>
  http.post('/api/auth/register', { username, email: `${username}@example.com`, password: 'correct-horse-1', ...(role ? { role } : {}) });

describe('registration modes', () => {
  const gateways: TestGateway[] = [];
  afterEach(async () => {
    for (const gw of gateways.splice(0)) await gw.dispose();
  });
  async function gateway(registration?: 'approval' | 'open' | 'closed') {
    const gw = await startTestGateway(registration ? { registration } : {});
    gateways.push(gw);
    const http = httpClient(gw.url);
    const admin = await registerUser(http, { username: 'boss' });
    return { gw, http, admin };
  }

  it('approval (the default): a viewer with the asked role pending; asking for admin is 403', async () => {
    const { gw, http } = await gateway();
    const res = await signUp(http, 'eve', 'operator');
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ role: 'viewer', requestedRole: 'operator' });
    // The pending account cannot do what it asked for.
    expect((await http.post('/api/devices/heater-1/control', { action: 'on' }, res.body.token)).status).toBe(403);
    const viewerAsk = await signUp(http, 'vic', 'viewer');
    expect(viewerAsk.body.user).toMatchObject({ role: 'viewer', requestedRole: 'viewer' });
    const before = databaseChecksum(gw);
    const adminAsk = await signUp(http, 'mallory', 'admin');
    expect(adminAsk.status).toBe(403);
    expect(databaseChecksum(gw)).toBe(before);
  });

  it('open: a viewer at once (not pending), whatever it asked for, and never admin', async () => {
    const { http } = await gateway('open');
    expect((await signUp(http, 'olga', 'operator')).body.user).toMatchObject({ role: 'viewer', requestedRole: null, pending: false });
    expect((await signUp(http, 'mallory', 'admin')).status).toBe(403);
  });

  it('closed: self-registration is 403 saying to ask an administrator; the admin still creates accounts', async () => {
    const { gw, http, admin } = await gateway('closed');
    const before = databaseChecksum(gw);
    const res = await signUp(http, 'eve', 'viewer');
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/administrator/i);
    expect(databaseChecksum(gw)).toBe(before);
    const created = await http.post('/api/users', { username: 'olga', email: 'o@example.com', password: 'correct-horse-1', role: 'operator' }, admin);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ username: 'olga', role: 'operator', requestedRole: null });
  });

  it('closed still lets the very first account be created, with the setup code (there is no admin to ask yet)', async () => {
    const gw = await startTestGateway({ registration: 'closed' });
    gateways.push(gw);
    const res = await httpClient(gw.url).post('/api/auth/register', { username: 'first', email: 'f@example.com', password: 'correct-horse-1', setupCode: setupCodeOf(gw.url) });
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('admin');
  });
});

describe('the users API (admin only)', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    gw = await startTestGateway();
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'boss' });
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await gw.dispose();
  });

  const socketFor = async (token: string) => {
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(token);
    return socket;
  };

  it('lists accounts with pending requests first, never a password hash', async () => {
    await http.post('/api/users', { username: 'anna', email: 'anna@example.com', password: 'correct-horse-1', role: 'viewer' }, admin);
    await signUp(http, 'zed', 'operator');
    const res = await http.get('/api/users', admin);
    expect(res.status).toBe(200);
    const users = res.body.data as any[];
    expect(users[0]).toMatchObject({ username: 'zed', role: 'viewer', requestedRole: 'operator', lastLogin: expect.any(String), createdAt: expect.any(String) });
    expect(users.map((u) => u.username)).toEqual(['zed', 'anna', 'boss']);
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|passwordHash|password_hash/);
  });

  it('grants a request: the role it asked for, the request cleared, and the waiting session goes straight in', async () => {
    const signedUp = await signUp(http, 'gina', 'operator');
    const waitingToken = signedUp.body.token as string;
    expect(signedUp.body.user).toMatchObject({ pending: true });
    // While pending: no socket, no control.
    const early = new TestSocket(gw.url);
    sockets.push(early);
    await early.opened();
    early.send('authenticate', { token: waitingToken });
    expect(await early.closed()).toBe(WS_CLOSE_FORBIDDEN);
    expect((await http.post('/api/devices/fan-1/control', { action: 'on' }, waitingToken)).status).toBe(403);
    const res = await http.put('/api/users/gina', { role: 'operator' }, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username: 'gina', role: 'operator', requestedRole: null, pending: false });
    // The same token now carries the granted role: nobody is signed out without a word.
    expect((await http.get('/api/auth/me', waitingToken)).body.data).toMatchObject({ role: 'operator', pending: false });
    await socketFor(waitingToken);
    expect((await http.post('/api/devices/fan-1/control', { action: 'on' }, waitingToken)).status).toBe(200);
  });

  it('demotes an operator at once: REST and websocket control stop with the change', async () => {
    const operator = await registerUser(http, { username: 'otto', role: 'operator' }, admin);
    const socket = await socketFor(operator);
    expect((await http.put('/api/users/otto', { role: 'viewer' }, admin)).status).toBe(200);
    expect(await socket.closed()).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await http.post('/api/devices/heater-1/control', { action: 'on' }, operator)).status).toBe(401);
  });

  it('a "change" to the role an account already has is no change: its token and socket stay, nothing is written', async () => {
    const token = await registerUser(http, { username: 'vera', role: 'viewer' }, admin);
    const socket = await socketFor(token);
    const row = () => gw.database.sqlite.prepare("SELECT * FROM users WHERE username = 'vera'").get();
    const before = row();
    const res = await http.put('/api/users/vera', { role: 'viewer' }, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Role unchanged: vera is already viewer', data: { username: 'vera', role: 'viewer' } });
    expect(row()).toEqual(before);
    expect((await http.get('/api/auth/me', token)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(socket.closeCode).toBeNull();
    // A real change still revokes at once.
    expect((await http.put('/api/users/vera', { role: 'operator' }, admin)).body.message).toBe('Role updated');
    expect(await socket.closed()).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await http.get('/api/auth/me', token)).status).toBe(401);
  });

  it('deletes an account: its token is refused and its sockets close at once', async () => {
    const token = await registerUser(http, { username: 'dora', role: 'operator' }, admin);
    const socket = await socketFor(token);
    const res = await http.del('/api/users/dora', admin);
    expect(res.status).toBe(200);
    expect(await socket.closed()).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await http.get('/api/auth/me', token)).status).toBe(401);
    expect((await http.get('/api/users', admin)).body.data.map((u: any) => u.username)).not.toContain('dora');
    expect((await http.del('/api/users/dora', admin)).status).toBe(404);
  });

  it('creates accounts of any role, refusing a taken name (409)', async () => {
    const res = await http.post('/api/users', { username: 'second-admin', email: 's@example.com', password: 'correct-horse-1', role: 'admin' }, admin);
    expect(res.status).toBe(201);
    expect(res.body.data.role).toBe('admin');
    expect((await http.post('/api/users', { username: 'SECOND-ADMIN', email: 's@example.com', password: 'correct-horse-1', role: 'viewer' }, admin)).status).toBe(409);
    await http.del('/api/users/second-admin', admin);
  });

  it('never leaves the gateway without an admin: the last one can be neither demoted nor deleted (409)', async () => {
    const before = databaseChecksum(gw);
    const demote = await http.put('/api/users/boss', { role: 'operator' }, admin);
    expect(demote.status).toBe(409);
    expect(demote.body.message).toMatch(/last admin/);
    const remove = await http.del('/api/users/boss', admin);
    expect(remove.status).toBe(409);
    expect(databaseChecksum(gw)).toBe(before);
    // With a second admin, the first may step down.
    await http.post('/api/users', { username: 'deputy', email: 'd@example.com', password: 'correct-horse-1', role: 'admin' }, admin);
    expect((await http.put('/api/users/boss', { role: 'operator' }, admin)).status).toBe(200);
    const deputy = (await http.post('/api/auth/login', { username: 'deputy', password: 'correct-horse-1' })).body.token;
    expect((await http.del('/api/users/deputy', deputy)).status).toBe(409);
  });

  it('answers 404 for an unknown user and 400 for a bad role or name', async () => {
    const deputy = (await http.post('/api/auth/login', { username: 'deputy', password: 'correct-horse-1' })).body.token;
    expect((await http.put('/api/users/nobody', { role: 'viewer' }, deputy)).status).toBe(404);
    const badRole = await http.put('/api/users/anna', { role: 'root' }, deputy);
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toMatch(/role/);
    expect((await http.put('/api/users/a', { role: 'viewer' }, deputy)).status).toBe(400);
  });

  it('revokes the sockets of a password change too, keeping the new session', async () => {
    const token = await registerUser(http, { username: 'pia', role: 'viewer' }, (await http.post('/api/auth/login', { username: 'deputy', password: 'correct-horse-1' })).body.token);
    const socket = await socketFor(token);
    const res = await http.put('/api/auth/password', { currentPassword: 'correct-horse-1', newPassword: 'correct-horse-2' }, token);
    expect(res.status).toBe(200);
    expect(await socket.closed()).toBe(WS_CLOSE_UNAUTHORIZED);
    const fresh = await socketFor(res.body.token);
    expect(fresh.closeCode).toBeNull();
  });
});
