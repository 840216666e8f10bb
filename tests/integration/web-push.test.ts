import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { snapshotOf } from '../support/snapshots.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { checkVapid, startPushReceiver, type FakeBrowser, type PushReceiver } from '../support/push-receiver.ts';

/** A base64url P-256 point moved off the curve (its last byte changed). */
function offCurve(p256dh: string): string {
  const point = Buffer.from(p256dh, 'base64url');
  point[64]! ^= 1;
  return point.toString('base64url');
}

describe('Web Push of alerts, against a push service on the loopback', () => {
  let receiver: PushReceiver;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let viewer: string;
  const clock = new ManualClock();

  const raise = async (severity: string, message = `${severity} test alert`) => {
    const res = await http.post('/api/alerts/default', { alertType: 'PUSH_TEST', severity, message }, admin);
    expect(res.status).toBe(201);
    await gw.push.pusher.idle();
    return res.body.data._id as string;
  };
  /** The alert ids each browser path received, decrypted with that browser's keys. */
  const pushesTo = (browser: FakeBrowser) => {
    const path = new URL(browser.subscription.endpoint).pathname;
    return receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(browser.decrypt(r.body)) as { alertId: string | null; title: string; body: string; severity: string | null; url: string; tag: string });
  };
  const subscribe = (token: string, browser: FakeBrowser, minSeverity: string) =>
    http.post('/api/push/subscriptions', { ...browser.subscription, expirationTime: null, minSeverity }, token);

  beforeAll(async () => {
    receiver = await startPushReceiver();
    gw = await startTestGateway(
      { webPush: { subject: 'mailto:grower@example.com', endpointHosts: ['127.0.0.1'] } },
      { clock, pushOptions: { agent: receiver.agent } },
    );
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner' });
    viewer = await registerUser(http, { username: 'watcher', role: 'viewer' }, admin);
  });
  afterAll(async () => {
    await gw.dispose();
    await receiver.close();
  });

  it('gives a signed-in account the VAPID public key (a P-256 point), kept 0600 in the data dir', async () => {
    expect((await http.get('/api/push')).status).toBe(401);
    const res = await http.get('/api/push', viewer);
    expect(res.status).toBe(200);
    expect(Buffer.from(res.body.data.publicKey, 'base64url')).toHaveLength(65);
    expect(res.body.data.subscriptions).toEqual([]);
    const file = join(gw.dataDir, 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).publicKey).toBe(res.body.data.publicKey);
  });

  it('pushes an alert at or above a browser\'s severity, encrypted for it and signed with the VAPID key', async () => {
    const phone = receiver.browser('/push/phone');
    const res = await subscribe(viewer, phone, 'HIGH');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ endpoint: phone.subscription.endpoint, minSeverity: 'HIGH', lastDeliveredAt: null });

    const mediumId = await raise('MEDIUM');
    const criticalId = await raise('CRITICAL', 'Air temperature 2.1 °C: frost risk');
    const received = pushesTo(phone);
    expect(received.map((p) => p.alertId)).not.toContain(mediumId);
    expect(received).toContainEqual({ alertId: criticalId, severity: 'CRITICAL', title: 'CRITICAL alert: push test', body: 'Air temperature 2.1 °C: frost risk', url: '/dashboard/alerts', tag: `alert-${criticalId}` });

    const request = receiver.received.find((r) => r.path === '/push/phone')!;
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(request.headers.urgency).toBe('high');
    expect(Number(request.headers.ttl)).toBe(86_400);
    const { claims, publicKey } = checkVapid(request.headers.authorization as string, receiver.origin, Date.now());
    expect(claims.sub).toBe('mailto:grower@example.com');
    expect(publicKey).toBe((await http.get('/api/push', viewer)).body.data.publicKey);
    const listed = (await http.get('/api/push', viewer)).body.data.subscriptions;
    expect(listed[0].lastDeliveredAt).not.toBeNull();
  });

  it('forgets a browser the push service says is gone (410), and keeps pushing to the others', async () => {
    const gone = receiver.browser('/push/gone');
    const kept = receiver.browser('/push/kept');
    expect((await subscribe(admin, gone, 'LOW')).status).toBe(201);
    expect((await subscribe(admin, kept, 'LOW')).status).toBe(201);
    receiver.answer('/push/gone', 410);
    const id = await raise('LOW');
    expect(pushesTo(kept).map((p) => p.alertId)).toContain(id);
    const endpoints = (await http.get('/api/push', admin)).body.data.subscriptions.map((s: { endpoint: string }) => s.endpoint);
    expect(endpoints).toEqual([kept.subscription.endpoint]);
    expect((await http.request('DELETE', '/api/push/subscriptions', { body: { endpoint: kept.subscription.endpoint }, token: admin })).status).toBe(200);
  });

  it('retries a push the service refused with a 500 after a back-off on the gateway clock; another browser is not held', async () => {
    const flaky = receiver.browser('/push/flaky');
    const steady = receiver.browser('/push/steady');
    await subscribe(admin, flaky, 'CRITICAL');
    await subscribe(admin, steady, 'CRITICAL');
    receiver.answer('/push/flaky', 500);
    const id = await raise('CRITICAL');
    expect(pushesTo(steady).filter((p) => p.alertId === id)).toHaveLength(1);
    expect((await http.get('/api/push', admin)).body.data.subscriptions.find((s: { endpoint: string }) => s.endpoint === flaky.subscription.endpoint).lastError).toMatch(/500/);
    // The first answer (a 500) was recorded, decrypted or not; nothing more until the back-off passes.
    expect(receiver.received.filter((r) => r.path === '/push/flaky')).toHaveLength(1);
    clock.advance(30_000);
    await expect.poll(() => receiver.received.filter((r) => r.path === '/push/flaky').length).toBe(2);
    await gw.push.pusher.idle();
    expect(pushesTo(flaky).filter((p) => p.alertId === id)).toHaveLength(2);
    const row = (await http.get('/api/push', admin)).body.data.subscriptions.find((s: { endpoint: string }) => s.endpoint === flaky.subscription.endpoint);
    expect(row.lastError).toBeNull();
    expect(row.lastDeliveredAt).not.toBeNull();
    for (const b of [flaky, steady]) await http.request('DELETE', '/api/push/subscriptions', { body: { endpoint: b.subscription.endpoint }, token: admin });
  });

  it('sends a test notification to the caller\'s browsers only', async () => {
    expect((await http.post('/api/push/test', undefined, admin)).status).toBe(404);
    const mine = receiver.browser('/push/test-mine');
    await subscribe(admin, mine, 'CRITICAL');
    const res = await http.post('/api/push/test', undefined, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ delivered: 1, failed: 0 });
    expect(pushesTo(mine).at(-1)).toMatchObject({ title: 'Greenhouse gateway', alertId: null, tag: 'test' });
    await http.request('DELETE', '/api/push/subscriptions', { body: { endpoint: mine.subscription.endpoint }, token: admin });
  });

  it('refuses bad subscriptions with a 400 naming the field, storing nothing', async () => {
    const good = receiver.browser('/push/never').subscription;
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, endpoint: good.endpoint.replace('https:', 'http:'), minSeverity: 'LOW' }, /endpoint/],
      [{ ...good, endpoint: 'https://192.168.1.10/admin/reboot', minSeverity: 'LOW' }, /endpoint.*not a known push service/],
      [{ ...good, keys: { ...good.keys, p256dh: 'short' }, minSeverity: 'LOW' }, /p256dh/],
      [{ ...good, keys: { ...good.keys, auth: 'a/b+c' }, minSeverity: 'LOW' }, /auth/],
      // The right length, but no public key: the encryption would refuse it at every push.
      [{ ...good, keys: { ...good.keys, p256dh: 'A'.repeat(87) }, minSeverity: 'LOW' }, /keys\.p256dh must be an uncompressed P-256 public key \(65 bytes starting with 0x04\), not 65 bytes starting with 0x00/],
      [{ ...good, keys: { ...good.keys, p256dh: offCurve(good.keys.p256dh) }, minSeverity: 'LOW' }, /keys\.p256dh is not a point on the P-256 curve/],
      [{ ...good, keys: { ...good.keys, auth: 'A'.repeat(24) }, minSeverity: 'LOW' }, /keys\.auth must be 16 bytes, not 18/],
      [{ ...good, endpoint: 'ftp://127.0.0.1/push/never', minSeverity: 'LOW' }, /endpoint/],
      [{ ...good, minSeverity: 'URGENT' }, /minSeverity/],
      [{ ...good, minSeverity: 'LOW', topic: 'x' }, /topic/],
      [{ endpoint: good.endpoint, minSeverity: 'LOW' }, /keys/],
    ];
    for (const [body, field] of cases) {
      const res = await http.post('/api/push/subscriptions', body, viewer);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toMatch(field);
    }
    const endpoints = (await http.get('/api/push', viewer)).body.data.subscriptions.map((s: { endpoint: string }) => s.endpoint);
    expect(endpoints).not.toContain(good.endpoint);
  });

  it('forgets a stored browser whose keys no push can be encrypted for at its first push, without retrying it', async () => {
    // As a subscription made before the keys were checked at subscribe would be.
    const ownerId = (gw.database.sqlite.prepare("SELECT id FROM users WHERE username = 'owner'").get() as { id: number }).id;
    const broken = receiver.browser('/push/broken').subscription;
    gw.push.repo.upsert({ userId: ownerId, endpoint: broken.endpoint, p256dh: 'A'.repeat(87), auth: broken.keys.auth, minSeverity: 'LOW' });
    await raise('CRITICAL');
    expect(gw.push.repo.all().map((r) => r.endpoint)).not.toContain(broken.endpoint);
    clock.advance(30 * 60_000);
    await gw.push.pusher.idle();
    expect(receiver.received.filter((r) => r.path === '/push/broken')).toEqual([]);
  });

  it('lets an account remove only its own browser; deleting the account removes its browsers', async () => {
    const theirs = receiver.browser('/push/theirs');
    await subscribe(viewer, theirs, 'LOW');
    const res = await http.request('DELETE', '/api/push/subscriptions', { body: { endpoint: theirs.subscription.endpoint }, token: admin });
    expect(res.status).toBe(404);
    expect(gw.push.repo.all().map((r) => r.endpoint)).toContain(theirs.subscription.endpoint);
    expect((await http.del('/api/users/watcher', admin)).status).toBe(200);
    expect(gw.push.repo.all().map((r) => r.endpoint)).not.toContain(theirs.subscription.endpoint);
  });

  it('pushes an alert the storage refused to store (frost on a full card), once, with no alert to open', async () => {
    const night = receiver.browser('/push/night');
    expect((await subscribe(admin, night, 'HIGH')).status).toBe(201);
    const frost = () => gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ temperature: 1 }, clock.now()) });
    gw.database.sqlite.pragma('query_only = 1');
    try {
      frost();
      await expect.poll(() => pushesTo(night)).toEqual([
        {
          alertId: null,
          severity: 'CRITICAL',
          title: 'CRITICAL alert: temperature low',
          body: "Temperature 1 °C is below the low threshold of 10 °C (not recorded: the gateway's storage refuses writes)",
          url: '/dashboard',
          tag: 'unrecorded-TEMPERATURE_LOW',
        },
      ]);
      frost();
      await gw.push.pusher.idle();
      expect(pushesTo(night)).toHaveLength(1);
    } finally {
      gw.database.sqlite.pragma('query_only = 0');
    }
    expect((await http.request('DELETE', '/api/push/subscriptions', { body: { endpoint: night.subscription.endpoint }, token: admin })).status).toBe(200);
  });
});

describe('Web Push as a channel kind of the notification outbox', () => {
  let receiver: PushReceiver;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;

  beforeAll(async () => {
    receiver = await startPushReceiver();
    gw = await startTestGateway({ webPush: { subject: 'mailto:grower@example.com', endpointHosts: ['127.0.0.1'] } }, { clock: new ManualClock(), pushOptions: { agent: receiver.agent } });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner' });
  });
  afterAll(async () => {
    await gw.dispose();
    await receiver.close();
  });

  it('refuses a target that is neither a username nor *, and a secret, naming the field', async () => {
    const bad = await http.post('/api/notifications/channels', { channelId: 'phones', kind: 'webpush', target: 'nobody', minSeverity: 'HIGH' }, admin);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/target/);
    const secret = await http.post('/api/notifications/channels', { channelId: 'phones', kind: 'webpush', target: '*', minSeverity: 'HIGH', secret: 'sixteen-characters!' }, admin);
    expect(secret.status).toBe(400);
    expect(JSON.stringify(secret.body)).toMatch(/secret/);
    expect((await http.get('/api/notifications/channels', admin)).body.data).toEqual([]);
  });

  it('with a webpush channel, an alert reaches each browser once, through the outbox and its delivery log', async () => {
    const phone = receiver.browser('/push/owner-phone');
    expect((await http.post('/api/push/subscriptions', { ...phone.subscription, minSeverity: 'LOW' }, admin)).status).toBe(201);
    expect((await http.post('/api/notifications/channels', { channelId: 'phones', kind: 'webpush', target: 'owner', minSeverity: 'HIGH' }, admin)).status).toBe(201);

    const res = await http.post('/api/alerts/default', { alertType: 'TANK_EMPTY', severity: 'CRITICAL', message: 'Tank empty: pump locked out' }, admin);
    const id = res.body.data._id as string;
    await gw.notifications.worker.idle();
    await gw.push.pusher.idle();

    const received = receiver.received.filter((r) => r.path === '/push/owner-phone').map((r) => JSON.parse(phone.decrypt(r.body)));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ alertId: id, severity: 'CRITICAL', tag: `alert-${id}`, url: `/dashboard/alerts?acknowledge=${id}` });
    const log = (await http.get('/api/notifications/log', admin)).body.data.find((d: { channelId: string; alertId: string }) => d.channelId === 'phones' && d.alertId === id);
    expect(log).toMatchObject({ status: 'delivered' });
  });
});
