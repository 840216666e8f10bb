import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startReceiver } from '../support/receivers.ts';
import { freePort } from '../support/server-process.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

const SECRET = 'webhook-shared-secret-1';
const MINUTE_MS = 60_000;

/**
 * A channel that fails at 2 am must not fail silently (server/notifications/README.md, "A channel that
 * fails"): the real gateway over HTTP on an injected clock, an ntfy channel whose address has nothing
 * listening, and a webhook that works.
 */
describe('an alert channel that keeps failing raises CHANNEL_FAILING through the others', () => {
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let ntfy: Awaited<ReturnType<typeof startReceiver>>;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let deadTarget = '';
  const clock = new ManualClock(Date.parse('2026-06-02T00:55:00Z'));

  const log = async () => (await http.get('/api/notifications/log?limit=500', admin)).body.data as any[];
  const active = async () => (await http.get('/api/alerts/active/greenhouse-001', admin)).body.data as any[];
  const failingAlerts = async () => (await active()).filter((a) => a.alertType === 'CHANNEL_FAILING');
  /** Moves the gateway's clock in steps no longer than an attempt's timeout, each attempt answered before the next step. */
  async function minutesPass(minutes: number): Promise<void> {
    for (let leftMs = minutes * MINUTE_MS; leftMs > 0; leftMs -= 15_000) {
      clock.advance(Math.min(15_000, leftMs));
      await gw.notifications.worker.idle();
    }
  }

  beforeAll(async () => {
    [hook, ntfy] = await Promise.all([startReceiver({ kind: 'webhook', secret: SECRET }), startReceiver({ kind: 'ntfy' })]);
    deadTarget = `http://127.0.0.1:${await freePort()}/greenhouse-secret-topic`;
    gw = await startTestGateway({}, { clock });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner', email: 'owner@farm.test' });
    for (const channel of [
      { channelId: 'hook', kind: 'webhook', target: `${hook.url}/greenhouse`, minSeverity: 'HIGH', secret: SECRET },
      { channelId: 'phone', kind: 'ntfy', target: deadTarget, minSeverity: 'MEDIUM' },
    ]) {
      expect((await http.post('/api/notifications/channels', channel, admin)).status).toBe(201);
    }
  });
  afterAll(async () => {
    await gw?.dispose();
    await Promise.all([hook?.close(), ntfy?.close()]);
  });

  it('after five minutes of failed attempts, not before, every other channel hears of it; the failing one is not sent it', async () => {
    const created = await http.post('/api/alerts/greenhouse-001', { alertType: 'TANK_EMPTY', severity: 'HIGH', message: 'Tank empty' }, admin);
    expect(created.status).toBe(201);
    const tankId = created.body.data._id;
    await gw.notifications.worker.idle();
    expect(hook.received.map((r) => JSON.parse(r.body).alert?._id)).toContain(tankId);
    // The back-off retries at 0.5, 1.5 and 3.5 minutes: a router's reboot, not yet a failing channel.
    await minutesPass(4);
    const tries = (await log()).find((d) => d.channelId === 'phone' && d.alertId === tankId).tries;
    expect(tries.map((t: any) => t.ok)).toEqual([false, false, false, false]);
    expect(await failingAlerts()).toEqual([]);

    // The retries go on failing (at 8.5 minutes, and sooner for the alerts the simulator raised meanwhile).
    await minutesPass(5);
    const [alert, ...others] = await failingAlerts();
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ severity: 'HIGH', deviceId: null, isResolved: false });
    expect(alert.message).toMatch(/^Alerts are not reaching channel phone \(ntfy\): every delivery for \d+ minutes failed \(.*ECONNREFUSED.*\)\. They are retried for about four hours\. Fix the channel in Settings › Alert Channels and press Test\.$/);
    // The topic URL is not in it: the alert is shown to every account and sent to the other channels.
    expect(alert.message).not.toContain('greenhouse-secret-topic');

    const told = hook.received.map((r) => JSON.parse(r.body)).find((p) => p.alert?.alertType === 'CHANNEL_FAILING');
    expect(told).toMatchObject({ event: 'alert', severity: 'HIGH', alert: { _id: alert._id } });
    const deliveries = (await log()).filter((d) => d.alertId === alert._id);
    expect(deliveries.map((d) => d.channelId)).toEqual(['hook']);

    // More failures raise nothing more.
    await minutesPass(11);
    expect(await failingAlerts()).toHaveLength(1);
  });

  it('the channel fixed and tested resolves it, and what waited is delivered', async () => {
    const [alert] = await failingAlerts();
    const edited = await http.put('/api/notifications/channels/phone', { target: `${ntfy.url}/greenhouse-alerts` }, admin);
    expect(edited.status).toBe(200);
    // The edit alone proves nothing: the alert stays until the channel delivers.
    expect(await failingAlerts()).toHaveLength(1);
    const test = await http.post('/api/notifications/channels/phone/test', {}, admin);
    expect(test.body.data).toMatchObject({ delivered: true });
    const resolved = (await http.get(`/api/alerts/greenhouse-001?status=resolved&limit=50`, admin)).body.data as any[];
    expect(resolved.find((a) => a._id === alert._id)).toMatchObject({ isResolved: true, actionTaken: 'Auto-resolved: channel phone delivered again' });
    expect(await failingAlerts()).toEqual([]);

    // The tank alert was still being retried: its next attempt reaches the fixed channel.
    await minutesPass(60);
    const tank = (await log()).find((d) => d.channelId === 'phone' && d.reason === 'alert' && d.title.includes('TANK'));
    expect(tank).toMatchObject({ status: 'delivered' });
    expect(ntfy.received.some((r) => r.body.includes('Tank empty'))).toBe(true);
  });

  it('a failing test alone raises nothing; a channel deleted while failing resolves its alert', async () => {
    const deadAgain = `http://127.0.0.1:${await freePort()}/topic`;
    expect((await http.post('/api/notifications/channels', { channelId: 'old-phone', kind: 'ntfy', target: deadAgain, minSeverity: 'LOW' }, admin)).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await http.post('/api/notifications/channels/old-phone/test', {}, admin)).body.data.delivered).toBe(false);
      await minutesPass(5);
    }
    expect(await failingAlerts()).toEqual([]);

    expect((await http.post('/api/alerts/greenhouse-001', { alertType: 'DOOR_OPEN', severity: 'LOW', message: 'Door open' }, admin)).status).toBe(201);
    await gw.notifications.worker.idle();
    await minutesPass(10);
    const [alert] = await failingAlerts();
    expect(alert.message).toContain('channel old-phone (ntfy)');
    expect((await http.del('/api/notifications/channels/old-phone', admin)).status).toBe(200);
    const resolved = (await http.get(`/api/alerts/greenhouse-001?status=resolved&limit=50`, admin)).body.data as any[];
    expect(resolved.find((a) => a._id === alert._id)).toMatchObject({ actionTaken: 'Auto-resolved: channel old-phone was deleted' });
    // Its deliveries left in the outbox fail from now on; that is not a channel failing.
    await minutesPass(30);
    expect(await failingAlerts()).toEqual([]);
  });
});
