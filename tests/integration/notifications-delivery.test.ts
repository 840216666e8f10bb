import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startReceiver } from '../support/receivers.ts';
import { startSmtpReceiver } from '../support/smtp.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const SECRET = 'webhook-shared-secret-1';
const PUBLIC_URL = 'http://greenhouse.local:8080';

describe('alerts delivered to local receivers through the outbox', () => {
  let webhook: Awaited<ReturnType<typeof startReceiver>>;
  let ntfy: Awaited<ReturnType<typeof startReceiver>>;
  let telegram: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));

  const raise = async (severity: string, alertType = 'TANK_EMPTY') => {
    const created = await http.post('/api/alerts/greenhouse-001', { alertType, severity, message: `${alertType} now` }, admin);
    expect(created.status).toBe(201);
    return created.body.data._id as string;
  };
  const log = async () => (await http.get('/api/notifications/log?limit=500', admin)).body.data as any[];

  beforeAll(async () => {
    [webhook, ntfy, telegram, smtp] = await Promise.all([
      startReceiver({ kind: 'webhook', secret: SECRET }),
      startReceiver({ kind: 'ntfy' }),
      startReceiver({ kind: 'telegram', token: TOKEN }),
      startSmtpReceiver({ rejectRecipients: ['bounced@farm.test'] }),
    ]);
    gw = await startTestGateway(
      {
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'greenhouse@farm.test' },
        notifications: { publicUrl: PUBLIC_URL, telegramApiUrl: telegram.url },
      },
      { clock },
    );
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner', email: 'owner@farm.test' });
    const channels = [
      { channelId: 'hook', kind: 'webhook', target: `${webhook.url}/greenhouse`, minSeverity: 'HIGH', secret: SECRET },
      { channelId: 'phone', kind: 'ntfy', target: `${ntfy.url}/greenhouse-alerts`, minSeverity: 'MEDIUM' },
      { channelId: 'bot', kind: 'telegram', target: '-1001234567', minSeverity: 'CRITICAL', secret: TOKEN },
      { channelId: 'mail-bounced', kind: 'email', target: 'bounced@farm.test', minSeverity: 'CRITICAL' },
      { channelId: 'mail-grower', kind: 'email', target: 'grower@farm.test', minSeverity: 'CRITICAL' },
    ];
    for (const channel of channels) expect((await http.post('/api/notifications/channels', channel, admin)).status).toBe(201);
  });
  afterAll(async () => {
    await gw?.dispose();
    await Promise.all([webhook?.close(), ntfy?.close(), telegram?.close(), smtp?.close()]);
  });

  it('sends a CRITICAL to every channel: signed webhook, ntfy with priority and click link, Telegram, e-mail; a bounced address fails alone', async () => {
    const id = await raise('CRITICAL');
    await gw.notifications.worker.idle();

    expect(webhook.received).toHaveLength(1);
    const hook = webhook.received[0]!;
    expect(hook.signatureValid).toBe(true);
    expect(hook.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(hook.body);
    expect(payload).toMatchObject({ event: 'alert', severity: 'CRITICAL', greenhouseId: 'greenhouse-001', alert: { _id: id, alertType: 'TANK_EMPTY' } });
    expect(payload.deliveryId).toEqual(expect.any(Number));

    const push = ntfy.received.at(-1)!;
    expect(push.path).toBe('/greenhouse-alerts');
    expect(push.headers.priority).toBe('5');
    expect(push.headers.title).toBe('CRITICAL: TANK EMPTY');
    expect(push.headers.click).toBe(`${PUBLIC_URL}/dashboard/alerts?acknowledge=${id}`);
    expect(push.body).toContain('TANK_EMPTY now');

    const bot = telegram.received.at(-1)!;
    expect(JSON.parse(bot.body)).toMatchObject({ chat_id: '-1001234567' });
    expect(JSON.parse(bot.body).text).toContain('CRITICAL: TANK EMPTY');

    expect(smtp.received.map((m) => m.to)).toContainEqual(['grower@farm.test']);
    const entries = (await log()).filter((d) => d.alertId === id);
    const byChannel = Object.fromEntries(entries.map((d) => [d.channelId, d]));
    expect(byChannel.hook).toMatchObject({ status: 'delivered', attempts: 1, reason: 'alert' });
    expect(byChannel.hook.tries[0]).toMatchObject({ ok: true, detail: 'HTTP 200' });
    expect(byChannel.phone.status).toBe('delivered');
    expect(byChannel.bot.status).toBe('delivered');
    expect(byChannel['mail-grower'].status).toBe('delivered');
    // The refused address is retried on its own; the others were not held back by it.
    expect(byChannel['mail-bounced']).toMatchObject({ status: 'pending', attempts: 1 });
    expect(byChannel['mail-bounced'].lastError).toMatch(/bounced|recipient|550/i);
  });

  it('honours minimum severity per channel', async () => {
    const before = { hook: webhook.received.length, ntfy: ntfy.received.length, bot: telegram.received.length };
    const id = await raise('MEDIUM', 'DOOR_OPEN');
    await gw.notifications.worker.idle();
    expect(webhook.received.length).toBe(before.hook);
    expect(telegram.received.length).toBe(before.bot);
    expect(ntfy.received.length).toBe(before.ntfy + 1);
    expect(ntfy.received.at(-1)!.headers.priority).toBe('3');
    expect((await log()).filter((d) => d.alertId === id).map((d) => d.channelId)).toEqual(['phone']);
  });

  it('retries a receiver that answers 500 with back-off, and a hanging one times out without blocking the others', async () => {
    webhook.set({ status: 500 });
    ntfy.set('hang');
    const id = await raise('CRITICAL', 'HEATER_FAILED');
    // Telegram and e-mail are delivered while the webhook fails and ntfy hangs.
    await vi.waitFor(async () => {
      const entries = (await log()).filter((d) => d.alertId === id);
      expect(entries.find((d) => d.channelId === 'bot')?.status).toBe('delivered');
      expect(entries.find((d) => d.channelId === 'mail-grower')?.status).toBe('delivered');
      expect(entries.find((d) => d.channelId === 'hook')?.attempts).toBe(1);
    });
    let entries = (await log()).filter((d) => d.alertId === id);
    expect(entries.find((d) => d.channelId === 'hook')).toMatchObject({ status: 'pending', lastError: expect.stringContaining('HTTP 500') });
    expect(entries.find((d) => d.channelId === 'phone')).toMatchObject({ status: 'pending', attempts: 0 });

    // ntfy's attempt times out on the gateway's clock (15 s): a failure, retried later.
    clock.advance(15_000);
    await gw.notifications.worker.idle();
    entries = (await log()).filter((d) => d.alertId === id);
    expect(entries.find((d) => d.channelId === 'phone')).toMatchObject({ status: 'pending', attempts: 1, lastError: 'timed out' });

    // Both receivers recover; the back-off (30 s after each first failure) brings both deliveries home.
    // Time moves in steps no longer than the attempt timeout, so an attempt has its answer before it.
    webhook.set('ok');
    ntfy.set('ok');
    clock.advance(15_000);
    await vi.waitFor(async () => {
      const now = (await log()).filter((d) => d.alertId === id);
      expect(now.find((d) => d.channelId === 'hook')).toMatchObject({ status: 'delivered', attempts: 2 });
    });
    clock.advance(15_000);
    await vi.waitFor(async () => {
      const now = (await log()).filter((d) => d.alertId === id);
      expect(now.find((d) => d.channelId === 'phone')).toMatchObject({ status: 'delivered', attempts: 2 });
    });
    const hookTries = (await log()).find((d) => d.alertId === id && d.channelId === 'hook').tries;
    expect(hookTries.map((t: any) => t.ok)).toEqual([false, true]);
    expect(Date.parse(hookTries[1].at) - Date.parse(hookTries[0].at)).toBeGreaterThanOrEqual(30_000);
  });

  it('the test button answers the first attempt and ignores minimum severity', async () => {
    const ok = await http.post('/api/notifications/channels/bot/test', {}, admin);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ delivered: true, delivery: { reason: 'test', status: 'delivered', attempts: 1 } });
    expect(JSON.parse(telegram.received.at(-1)!.body).text).toContain('Test notification');

    webhook.set({ status: 503 });
    const failed = await http.post('/api/notifications/channels/hook/test', {}, admin);
    webhook.set('ok');
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ delivered: false, delivery: { status: 'failed', attempts: 1 } });
    expect(failed.body.message).toContain('HTTP 503');
    expect((await http.post('/api/notifications/channels/nobody/test', {}, admin)).status).toBe(404);
  });
});
