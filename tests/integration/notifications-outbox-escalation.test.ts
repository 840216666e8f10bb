import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startReceiver } from '../support/receivers.ts';
import { startSmtpReceiver } from '../support/smtp.ts';
import { startTestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { freePort } from '../support/server-process.ts';

const MINUTE = 60_000;

describe('the outbox across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-outbox-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a delivery pending when the gateway stops is sent after it starts again', async () => {
    // The receiver is not up yet: its port is refused, so the first attempt fails and stays pending.
    const port = await freePort();
    const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
    const first = await startTestGateway({ dataDir }, { clock });
    const http = httpClient(first.url);
    const admin = await registerUser(http, { username: 'owner' });
    expect((await http.post('/api/notifications/channels', { channelId: 'hook', kind: 'webhook', target: `http://127.0.0.1:${port}/in`, minSeverity: 'CRITICAL' }, admin)).status).toBe(201);
    const alertId = (await http.post('/api/alerts/greenhouse-001', { alertType: 'FROST', severity: 'CRITICAL', message: 'Frost in house 2' }, admin)).body.data._id;
    await first.notifications.worker.idle();
    const pending = (await http.get('/api/notifications/log', admin)).body.data.find((d: any) => d.alertId === alertId);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: 'ECONNREFUSED' });
    await first.stop();

    // The receiver comes up on that port; a new gateway process opens the same data dir.
    const receiver = await startReceiver({ kind: 'webhook' });
    const forward = await startForward(port, receiver.url);
    const laterClock = new ManualClock(Date.parse('2026-06-01T12:05:00Z'));
    const second = await startTestGateway({ dataDir }, { clock: laterClock });
    try {
      await vi.waitFor(() => expect(receiver.received).toHaveLength(1));
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ alert: { _id: alertId, alertType: 'FROST' } });
      await second.notifications.worker.idle();
      const http2 = httpClient(second.url);
      const token = (await http2.post('/api/auth/login', { username: 'owner', password: 'correct-horse-1' })).body.token;
      const delivered = (await http2.get('/api/notifications/log', token)).body.data.find((d: any) => d.alertId === alertId);
      expect(delivered).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await second.stop();
      forward.close();
      await receiver.close();
    }
  });
});

describe('acknowledge and escalation of CRITICAL alerts', () => {
  it('an unacknowledged CRITICAL goes again to every channel after escalateAfterMinutes, quiet hours or not; acknowledging stops it', async () => {
    // 02:00 gateway local time: inside the ntfy channel's quiet hours.
    const clock = new ManualClock(new Date(2026, 5, 2, 2, 0, 0).getTime());
    const [hook, phone, smtp] = await Promise.all([startReceiver({ kind: 'webhook' }), startReceiver({ kind: 'ntfy' }), startSmtpReceiver()]);
    const gw = await startTestGateway({ smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'gh@farm.test' } }, { clock });
    try {
      const http = httpClient(gw.url);
      const admin = await registerUser(http, { username: 'owner' });
      const viewer = await registerUser(http, { username: 'guest', role: 'viewer' }, admin);
      expect((await http.put('/api/settings/greenhouse-001/system', { systemSettings: { escalateAfterMinutes: 10 } }, admin)).status).toBe(200);
      expect((await http.put('/api/settings/greenhouse-001/system', { systemSettings: { escalateAfterMinutes: 0 } }, admin)).status).toBe(400);
      const channels = [
        { channelId: 'hook', kind: 'webhook', target: `${hook.url}/in`, minSeverity: 'CRITICAL' },
        { channelId: 'phone', kind: 'ntfy', target: `${phone.url}/night`, minSeverity: 'LOW', quietHours: { from: '22:00', to: '06:00' } },
        { channelId: 'mail', kind: 'email', target: 'night@farm.test', minSeverity: 'CRITICAL' },
      ];
      for (const c of channels) expect((await http.post('/api/notifications/channels', c, admin)).status).toBe(201);

      const frost = (await http.post('/api/alerts/greenhouse-001', { alertType: 'FROST', severity: 'CRITICAL', message: 'Frost' }, admin)).body.data._id;
      const other = (await http.post('/api/alerts/greenhouse-001', { alertType: 'HEATER_FAILED', severity: 'CRITICAL', message: 'Heater' }, admin)).body.data._id;
      await gw.notifications.worker.idle();
      const sentFor = (receiver: typeof hook, id: string, event: string) =>
        receiver.received.filter((r) => {
          const body = receiver === hook ? JSON.parse(r.body) : null;
          return receiver === hook ? body.alert?._id === id && body.event === event : r.headers.click?.toString().endsWith(`acknowledge=${id}`) && r.headers.title?.toString().includes(event === 'escalation' ? 'not acknowledged' : '');
        }).length;
      expect(sentFor(hook, frost, 'alert')).toBe(1);
      // Quiet hours: the phone hears nothing of the alert itself.
      expect(phone.received).toHaveLength(0);

      // The grower acknowledges one of the two.
      expect((await http.put(`/api/alerts/${other}/acknowledge`, undefined, viewer)).status).toBe(403);
      const acked = await http.put(`/api/alerts/${other}/acknowledge`, undefined, admin);
      expect(acked.status).toBe(200);
      expect(acked.body.data).toMatchObject({ _id: other, acknowledgedBy: 'owner', acknowledgedAt: new Date(clock.now()).toISOString() });

      // Nine minutes: nothing yet. Ten: the unacknowledged one goes to every channel, phone included.
      clock.advance(9 * MINUTE);
      await gw.notifications.worker.idle();
      expect(sentFor(hook, frost, 'escalation')).toBe(0);
      clock.advance(1 * MINUTE);
      await vi.waitFor(() => {
        expect(sentFor(hook, frost, 'escalation')).toBe(1);
        expect(sentFor(phone, frost, 'escalation')).toBe(1);
        expect(smtp.received.filter((m) => m.raw.includes('not acknowledged'))).toHaveLength(1);
      });
      expect(phone.received.at(-1)!.headers.priority).toBe('5');
      expect(sentFor(hook, other, 'escalation')).toBe(0);

      // Still nobody: once more ten minutes later. Then the grower taps the link; no more.
      clock.advance(10 * MINUTE);
      await vi.waitFor(() => expect(sentFor(hook, frost, 'escalation')).toBe(2));
      expect((await http.put(`/api/alerts/${frost}/acknowledge`, undefined, admin)).status).toBe(200);
      clock.advance(30 * MINUTE);
      await gw.notifications.worker.idle();
      expect(sentFor(hook, frost, 'escalation')).toBe(2);
      expect(sentFor(hook, other, 'escalation')).toBe(0);
      const log = (await http.get('/api/notifications/log?limit=500', admin)).body.data.filter((d: any) => d.alertId === frost && d.reason === 'escalation');
      expect(log.map((d: any) => d.channelId).sort()).toEqual(['hook', 'hook', 'mail', 'mail', 'phone', 'phone']);
    } finally {
      await gw.dispose();
      await Promise.all([hook.close(), phone.close(), smtp.close()]);
    }
  });

  it('acknowledge: 404 unknown, 400 bad id, 409 resolved, idempotent otherwise', async () => {
    const gw = await startTestGateway();
    try {
      const http = httpClient(gw.url);
      const admin = await registerUser(http, { username: 'owner' });
      const id = (await http.post('/api/alerts/greenhouse-001', { alertType: 'FROST', severity: 'HIGH', message: 'Frost' }, admin)).body.data._id;
      expect((await http.put('/api/alerts/999/acknowledge', undefined, admin)).status).toBe(404);
      const bad = await http.put('/api/alerts/abc/acknowledge', undefined, admin);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('id');
      const unknownKey = await http.put(`/api/alerts/${id}/acknowledge`, { note: 'x' }, admin);
      expect(unknownKey.status).toBe(400);
      expect(unknownKey.body.message).toContain('note');
      const first = await http.put(`/api/alerts/${id}/acknowledge`, undefined, admin);
      const again = await http.put(`/api/alerts/${id}/acknowledge`, {}, admin);
      expect(again.body.data.acknowledgedAt).toBe(first.body.data.acknowledgedAt);
      expect((await http.put(`/api/alerts/${id}/resolve`, undefined, admin)).status).toBe(200);
      expect((await http.put(`/api/alerts/${id}/acknowledge`, undefined, admin)).status).toBe(409);
    } finally {
      await gw.dispose();
    }
  });
});

/** A TCP forwarder from a fixed port to the receiver (the receiver itself picks a free port). */
async function startForward(port: number, targetUrl: string) {
  const net = await import('node:net');
  const target = new URL(targetUrl);
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { close: () => server.close() };
}
