import pino from 'pino';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RealtimeHub } from '../../../server/realtime/hub.ts';
import type { UserRow } from '../../../server/auth/users-repo.ts';

/** Stands in for a `ws` socket: records what is sent and whether it was terminated. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  terminated = false;
  closedWith: number | null = null;
  send(message: Buffer | string) {
    this.sent.push(String(message));
  }
  ping() {}
  terminate() {
    this.terminated = true;
    this.readyState = 3;
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
}

/** The hub sends in later turns of the event loop, one socket per turn: enough turns for every socket here. */
async function delivered(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

const account = { id: 1, username: 'u', role: 'operator', tokenVersion: 0 } as UserRow;

function makeHub() {
  return new RealtimeHub({
    verifyToken: (token) => (token === 'good' ? { account, expiresAtMs: Date.now() + 60_000, tokenId: 't1' } : null),
    reloadAccount: (a) => a,
    toPublicUser: () => ({ username: 'u' }) as never,
    resolveGreenhouse: (id) => (id === 'gh' ? 'gh' : null),
    logger: pino({ level: 'silent' }),
    options: { maxBufferedBytes: 1000 },
  });
}

describe('RealtimeHub', () => {
  it('drops a slow client instead of buffering without bound', async () => {
    const hub = makeHub();
    const slow = new FakeSocket();
    const fast = new FakeSocket();
    hub.accept(slow as never, 'good');
    hub.accept(fast as never, 'good');
    slow.emit('message', Buffer.from(JSON.stringify({ event: 'join-greenhouse', data: 'gh' })), false);
    fast.emit('message', Buffer.from(JSON.stringify({ event: 'join-greenhouse', data: 'gh' })), false);
    await delivered();
    slow.bufferedAmount = 5000;
    hub.broadcast('gh', 'deviceRemoved', { greenhouseId: 'gh', deviceId: 'x' });
    await delivered();
    expect(slow.terminated).toBe(true);
    expect(fast.sent.some((m) => m.includes('deviceRemoved'))).toBe(true);
    expect(hub.clientCount).toBe(1);
    hub.stop();
  });

  it('hands commands to their handler and reports HttpErrors as error events', async () => {
    const hub = makeHub();
    const socket = new FakeSocket();
    hub.accept(socket as never, 'good');
    const { HttpError } = await import('../../../server/http/errors.ts');
    hub.onClientEvent('device-control', () => {
      throw new HttpError(409, 'Maintenance mode');
    });
    socket.emit('message', Buffer.from(JSON.stringify({ event: 'device-control', data: { deviceId: 'a' } })), false);
    await delivered();
    const last = JSON.parse(socket.sent.at(-1)!);
    expect(last).toEqual({ event: 'error', data: { event: 'device-control', status: 409, message: 'Maintenance mode' } });
    hub.stop();
  });

  it('caps sockets per account (4429) and in all (1013), and frees a place when one closes', () => {
    let current: UserRow | null = account;
    const hub = new RealtimeHub({
      verifyToken: (token) => (token === 'good' ? { account, expiresAtMs: Date.now() + 60_000, tokenId: 't1' } : token === 'other' ? { account: { ...account, id: 2 }, expiresAtMs: Date.now() + 60_000, tokenId: 't2' } : null),
      reloadAccount: () => current,
      toPublicUser: () => ({ username: 'u' }) as never,
      resolveGreenhouse: (id) => id,
      logger: pino({ level: 'silent' }),
      options: { maxSocketsPerAccount: 2, maxSocketsTotal: 4 },
    });
    const sockets = Array.from({ length: 5 }, () => new FakeSocket());
    sockets.slice(0, 3).forEach((s) => hub.accept(s as never, 'good'));
    expect(sockets.map((s) => s.closedWith).slice(0, 3)).toEqual([null, null, 4429]);
    hub.accept(sockets[3] as never, 'other');
    expect(sockets[3]!.closedWith).toBeNull();
    // Three are held now (two of account 1, one of account 2); a fourth and fifth: one fits, one does not.
    hub.accept(sockets[4] as never, 'other');
    const extra = new FakeSocket();
    hub.accept(extra as never, 'other');
    expect(extra.closedWith).toBe(1013);
    // A revoked account loses its sockets at once; the other account keeps its own.
    current = null;
    hub.revalidateAccount(1, 'Role changed');
    expect(sockets[0]!.closedWith).toBe(4401);
    expect(sockets[1]!.closedWith).toBe(4401);
    expect(hub.clientCount).toBe(2);
    hub.stop();
  });

  it('sends outside the turn that raised the events, one socket per turn, each socket in order', async () => {
    const hub = makeHub();
    const sockets = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    for (const socket of sockets) {
      hub.accept(socket as never, 'good');
      socket.emit('message', Buffer.from(JSON.stringify({ event: 'join-greenhouse', data: 'gh' })), false);
    }
    await delivered();
    for (const socket of sockets) socket.sent = [];

    hub.broadcast('gh', 'deviceRemoved', { greenhouseId: 'gh', deviceId: 'first' });
    hub.broadcast('gh', 'deviceRemoved', { greenhouseId: 'gh', deviceId: 'second' });
    // A reply queued after the broadcasts does not overtake them.
    sockets[1]!.emit('message', Buffer.from('not json'), false);
    expect(sockets.map((s) => s.sent.length)).toEqual([0, 0, 0]);

    await delivered(1);
    expect(sockets.map((s) => s.sent.length)).toEqual([2, 0, 0]);
    await delivered(1);
    expect(sockets.map((s) => s.sent.length)).toEqual([2, 3, 0]);
    await delivered(1);
    expect(sockets.map((s) => s.sent.length)).toEqual([2, 3, 2]);
    const events = sockets[1]!.sent.map((m) => JSON.parse(m) as { event: string; data: { deviceId?: string } });
    expect(events.map((e) => e.data.deviceId ?? e.event)).toEqual(['first', 'second', 'error']);
    hub.stop();
  });

  it('delivers what waits for a socket before closing it, and drops what waited for a socket that went', async () => {
    const hub = makeHub();
    const closing = new FakeSocket();
    const gone = new FakeSocket();
    for (const socket of [closing, gone]) {
      hub.accept(socket as never, 'good');
      socket.emit('message', Buffer.from(JSON.stringify({ event: 'join-greenhouse', data: 'gh' })), false);
    }
    await delivered();
    closing.sent = [];
    gone.sent = [];
    hub.broadcast('gh', 'deviceRemoved', { greenhouseId: 'gh', deviceId: 'x' });
    gone.readyState = 3;
    gone.emit('close');
    hub.stop();
    expect(closing.sent.map((m) => (JSON.parse(m) as { event: string }).event)).toEqual(['deviceRemoved']);
    expect(closing.closedWith).toBe(1001);
    await delivered();
    expect(gone.sent).toEqual([]);
  });
});
