import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HUB_OPTIONS } from '../../server/realtime/hub.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { TestSocket } from '../support/ws.ts';
import { signWithGatewaySecret } from '../support/tokens.ts';

let gw: TestGateway;
let token: string;
const sockets: TestSocket[] = [];
const open = (headers?: Record<string, string>) => {
  const socket = new TestSocket(gw.url, headers);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  gw = await startTestGateway({}, { hubOptions: { authTimeoutMs: 300, heartbeatMs: 200 } });
  token = await registerUser(httpClient(gw.url), { username: 'watcher' });
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await gw.dispose();
});

describe('/ws authentication', () => {
  it('waits 5 seconds for authentication by default (docs/decisions.md)', () => {
    expect(DEFAULT_HUB_OPTIONS.authTimeoutMs).toBe(5000);
  });

  it('authenticates with a first message, then joins the greenhouse', async () => {
    const socket = open();
    await socket.opened();
    socket.send('authenticate', { token });
    const auth = await socket.next('authenticated');
    expect(auth.user.username).toBe('watcher');
    socket.send('join-greenhouse', 'greenhouse-001');
    expect(await socket.next('greenhouse-joined')).toEqual({ greenhouseId: 'greenhouse-001' });
  });

  it('accepts a bearer header on the upgrade', async () => {
    const socket = open({ authorization: `Bearer ${token}` });
    expect((await socket.next('authenticated')).user.username).toBe('watcher');
  });

  it('joins through the default alias', async () => {
    const socket = open();
    await socket.opened();
    socket.send('authenticate', { token });
    await socket.next('authenticated');
    socket.send('join-greenhouse', 'default');
    expect(await socket.next('greenhouse-joined')).toEqual({ greenhouseId: 'greenhouse-001' });
  });

  it.each([
    ['a bad token', { event: 'authenticate', data: { token: 'not.a.token' } }],
    ['a missing token', { event: 'authenticate', data: {} }],
    ['another event first', { event: 'join-greenhouse', data: 'greenhouse-001' }],
    ['garbage', 'this is not json'],
  ])('closes with 4401 on %s', async (_name, message) => {
    const socket = open();
    await socket.opened();
    socket.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    expect(await socket.closed()).toBe(4401);
    expect(socket.messages.find((m) => m.event === 'authenticated')).toBeUndefined();
  });

  it.each([
    ['an unknown key beside the token', { event: 'authenticate', data: { token: 'TOKEN', zz: 1 } }, 'Invalid authenticate: zz is not an accepted field'],
    ['an unknown key beside event and data', { event: 'authenticate', data: { token: 'TOKEN' }, zz: 1 }, 'Invalid message: zz is not an accepted field'],
    ['a token that is not a string', { event: 'authenticate', data: { token: 5 } }, 'Invalid authenticate: token must be string'],
  ])('closes with 4401 on %s, saying why, even with a good token', async (_name, message, reason) => {
    const socket = open();
    await socket.opened();
    let closeReason = '';
    socket.socket.on('close', (_code, why) => (closeReason = why.toString()));
    socket.socket.send(JSON.stringify(message).replace('"TOKEN"', JSON.stringify(token)));
    expect(await socket.closed()).toBe(4401);
    expect(closeReason).toBe(reason);
    expect(socket.messages.find((m) => m.event === 'authenticated')).toBeUndefined();
  });

  it('cuts a close reason to the 123 bytes a close frame holds (a long unknown key still closes with 4401)', async () => {
    const socket = open();
    await socket.opened();
    let closeReason = '';
    socket.socket.on('close', (_code, why) => (closeReason = why.toString()));
    socket.send('authenticate', { token, ['é'.repeat(200)]: 1 });
    expect(await socket.closed()).toBe(4401);
    expect(Buffer.byteLength(closeReason)).toBeLessThanOrEqual(123);
    expect(closeReason).toMatch(/^Invalid authenticate: é+\.\.\.$/);
  });

  it('closes with 4401 when no authentication arrives in time', async () => {
    const socket = open();
    await socket.opened();
    expect(await socket.closed()).toBe(4401);
  });

  it('closes with 4401 for an expired token', async () => {
    const nowS = Math.floor(Date.now() / 1000);
    const expired = signWithGatewaySecret(gw.dataDir, { sub: '1', username: 'watcher', role: 'admin', tv: 0, iat: nowS - 90_000, exp: nowS - 60 });
    const socket = open();
    await socket.opened();
    socket.send('authenticate', { token: expired });
    expect(await socket.closed()).toBe(4401);
  });
});

describe('/ws after authentication', () => {
  it('answers an unknown greenhouse with an error event and keeps the socket', async () => {
    const socket = open();
    await socket.opened();
    socket.send('authenticate', { token });
    await socket.next('authenticated');
    socket.send('join-greenhouse', 'greenhouse-404');
    expect(await socket.next('error')).toMatchObject({ status: 404, message: expect.stringContaining('greenhouse-404') });
    socket.send('join-greenhouse', 'greenhouse-001');
    await socket.next('greenhouse-joined');
  });

  it('answers unknown events and non-JSON with error events', async () => {
    const socket = open();
    await socket.join(token);
    socket.send('launch-rockets', {});
    expect(await socket.next('error')).toMatchObject({ status: 400, message: expect.stringContaining('launch-rockets') });
    socket.socket.send('{oops');
    await socket.next('error', (d) => d.message.includes('JSON'));
  });

  it('refuses unknown keys and malformed data in every client message with a 400 naming them, and keeps the socket', async () => {
    const socket = open();
    await socket.join(token);
    const refusal = async (message: unknown) => {
      const from = socket.messages.length;
      socket.socket.send(JSON.stringify(message));
      return socket.next('error', () => true, 5000, from);
    };
    expect(await refusal({ event: 'join-greenhouse', data: 'greenhouse-001', zz: 1 })).toEqual({ event: 'join-greenhouse', status: 400, message: 'Invalid message: zz is not an accepted field' });
    expect(await refusal({ event: 'join-greenhouse', data: { greenhouseId: 'greenhouse-001', zz: 1 } })).toEqual({ event: 'join-greenhouse', status: 400, message: 'Invalid join-greenhouse: zz is not an accepted field' });
    expect(await refusal({ event: 'join-greenhouse', data: 5 })).toEqual({ event: 'join-greenhouse', status: 400, message: 'Invalid join-greenhouse: data must be a greenhouse id' });
    expect(await refusal({ event: 'join-greenhouse', data: {} })).toEqual({ event: 'join-greenhouse', status: 400, message: 'Invalid join-greenhouse: greenhouseId is required' });
    expect(await refusal({ event: 'launch-rockets', data: {}, zz: 1 })).toEqual({ event: 'launch-rockets', status: 400, message: 'Invalid message: zz is not an accepted field' });
    // The object form without extras still joins, and the socket is still open.
    socket.send('join-greenhouse', { greenhouseId: 'default' });
    expect(await socket.next('greenhouse-joined', () => true, 5000, socket.messages.length - 1)).toEqual({ greenhouseId: 'greenhouse-001' });
    expect(socket.closeCode).toBeNull();
  });

  it('relays bus events only to sockets that joined the greenhouse', async () => {
    const joined = open();
    await joined.join(token);
    const lurker = open();
    await lurker.opened();
    lurker.send('authenticate', { token });
    await lurker.next('authenticated');

    gw.bus.emit('deviceRemoved', { greenhouseId: 'greenhouse-001', deviceId: 'fan-9' });
    expect(await joined.next('deviceRemoved')).toEqual({ greenhouseId: 'greenhouse-001', deviceId: 'fan-9' });
    await new Promise((r) => setTimeout(r, 100));
    expect(lurker.messages.map((m) => m.event)).not.toContain('deviceRemoved');
  });

  it('keeps answering pings (heartbeat) and stays connected', async () => {
    const socket = open();
    await socket.join(token);
    await new Promise((r) => setTimeout(r, 700));
    expect(socket.closeCode).toBeNull();
  });

  it('drops a socket that stops answering heartbeats', async () => {
    const socket = open();
    await socket.join(token);
    // Pause the client's socket so pongs stop; the server terminates it after a missed heartbeat.
    (socket.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const before = gw.hub.clientCount;
    await socket.until(() => (gw.hub.clientCount < before ? true : undefined), 3000, 'heartbeat drop');
  });
});
