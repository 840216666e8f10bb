import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startReceiver } from '../support/receivers.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

const SECRET = 'webhook-shared-secret-1';
const GH = 'greenhouse-001';

/**
 * When the database refuses writes the outbox cannot hold a message, so that news goes past it to
 * every channel (docs/storage.md, "When the storage refuses a write"): the real gateway, its SQLite
 * connection made to refuse writes, and local receivers.
 */
describe('the news of a database that refuses writes reaches every channel', () => {
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let ntfy: Awaited<ReturnType<typeof startReceiver>>;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  const clock = new ManualClock(Date.parse('2026-06-02T01:00:00Z'));
  const news = () => hook.received.map((r) => JSON.parse(r.body)).filter((p) => p.event === 'gateway-failure');
  /** A tick of readings and the commit it waits for, which the database refuses or takes. */
  function commitReadings(): void {
    gw.batches.insertTick(GH, [{ sensorType: 'LDR', takenAtMs: clock.now(), lightLux: 900 }]);
    gw.batches.flush();
  }

  beforeAll(async () => {
    [hook, ntfy] = await Promise.all([startReceiver({ kind: 'webhook', secret: SECRET }), startReceiver({ kind: 'ntfy' })]);
    gw = await startTestGateway({}, { clock });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner' });
    // A webhook for CRITICAL only and an ntfy topic for everything: the news goes to both, whatever their severity.
    expect((await http.post('/api/notifications/channels', { channelId: 'hook', kind: 'webhook', target: `${hook.url}/gh`, minSeverity: 'CRITICAL', secret: SECRET }, admin)).status).toBe(201);
    expect((await http.post('/api/notifications/channels', { channelId: 'phone', kind: 'ntfy', target: `${ntfy.url}/gh-alerts`, minSeverity: 'LOW' }, admin)).status).toBe(201);
  });
  afterAll(async () => {
    gw?.database.sqlite.pragma('query_only = 0');
    await gw?.dispose();
    await Promise.all([hook?.close(), ntfy?.close()]);
  });

  it('goes out once when commits start failing, not again while they keep failing, and at most hourly', async () => {
    gw.database.sqlite.pragma('query_only = 1');
    commitReadings();
    await expect.poll(() => news().length).toBe(1);
    expect(news()[0]).toMatchObject({ severity: 'CRITICAL', greenhouseId: GH, title: 'CRITICAL: greenhouse gateway cannot record' });
    expect(news()[0].body).toContain('refuses writes (attempt to write a readonly database)');
    expect(hook.received.at(-1)!.signatureValid).toBe(true);
    await expect.poll(() => ntfy.received.filter((r) => r.headers.title === 'CRITICAL: greenhouse gateway cannot record').length).toBe(1);
    // Nothing of it could be stored: the delivery log does not have it.
    gw.database.sqlite.pragma('query_only = 0');
    expect(((await http.get('/api/notifications/log?limit=100', admin)).body.data as any[]).filter((d) => d.reason === 'gateway-failure')).toEqual([]);
    gw.database.sqlite.pragma('query_only = 1');

    commitReadings();
    commitReadings();
    // Taken again, then refused again within the hour: a card at its last megabytes does not buzz the phone all night.
    gw.database.sqlite.pragma('query_only = 0');
    commitReadings();
    gw.database.sqlite.pragma('query_only = 1');
    commitReadings();
    // A second message would reach the loopback receiver within milliseconds; give it ample time not to.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(news()).toHaveLength(1);

    clock.advance(61 * 60_000);
    gw.database.sqlite.pragma('query_only = 0');
    commitReadings();
    gw.database.sqlite.pragma('query_only = 1');
    commitReadings();
    await expect.poll(() => news().length).toBe(2);
    gw.database.sqlite.pragma('query_only = 0');
  });
});
