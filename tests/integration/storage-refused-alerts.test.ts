import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { UNRECORDED_REPEAT_MS } from '../../server/alerts/alert-service.ts';
import { snapshotOf } from '../support/snapshots.ts';
import { startReceiver } from '../support/receivers.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

const GH = 'greenhouse-001';

/**
 * An alert raised while the database refuses writes cannot be stored, nor queued in the outbox that lives
 * in it: it goes past the outbox to the channels that would have had it (docs/storage.md, "When the
 * storage refuses a write"). The real gateway, its SQLite connection made to refuse writes, local
 * receivers, and readings the sampler would publish (default low temperature threshold: 10 °C).
 */
describe('an alert raised while the database refuses writes still reaches the channels', () => {
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let ntfy: Awaited<ReturnType<typeof startReceiver>>;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  const clock = new ManualClock(Date.parse('2026-06-02T12:00:00Z'));
  /** What a receiver got, by title. */
  const titlesAt = (receiver: typeof hook) => receiver.received.map((r) => (receiver === ntfy ? String(r.headers.title) : String(JSON.parse(r.body).title)));
  /** The temperature alerts a receiver got (the news that the storage refuses writes goes there too). */
  const alertsAt = (receiver: typeof hook) => titlesAt(receiver).filter((title) => title.includes('TEMPERATURE'));
  const readings = (values: Parameters<typeof snapshotOf>[0]) => gw.bus.emit('sampleTaken', { greenhouseId: GH, readings: [], snapshot: snapshotOf(values, clock.now()) });
  const sample = (temperature: number) => readings({ temperature });
  const active = async () => ((await http.get(`/api/alerts/${GH}?status=active`, admin)).body.data as any[]).map((a) => `${a.alertType} ${a.severity}`);
  /** Long enough for a message that was going to be sent to reach a loopback receiver. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  beforeAll(async () => {
    [hook, ntfy] = await Promise.all([startReceiver({ kind: 'webhook' }), startReceiver({ kind: 'ntfy' })]);
    gw = await startTestGateway({}, { clock });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner' });
    expect((await http.post('/api/notifications/channels', { channelId: 'hook', kind: 'webhook', target: `${hook.url}/gh`, minSeverity: 'HIGH' }, admin)).status).toBe(201);
    expect((await http.post('/api/notifications/channels', { channelId: 'phone', kind: 'ntfy', target: `${ntfy.url}/gh-alerts`, minSeverity: 'LOW' }, admin)).status).toBe(201);
  });
  afterAll(async () => {
    gw?.database.sqlite.pragma('query_only = 0');
    await gw?.dispose();
    await Promise.all([hook?.close(), ntfy?.close()]);
  });

  it('goes once to each channel at or above its minimum severity, again when it gets worse, and after the repeat window', async () => {
    gw.database.sqlite.pragma('query_only = 1');
    sample(7);
    await expect.poll(() => alertsAt(ntfy)).toEqual(['MEDIUM: TEMPERATURE LOW']);
    const body = String(ntfy.received.at(-1)!.body);
    expect(body).toContain('Temperature 7 °C is below the low threshold of 10 °C');
    expect(body).toContain("Not recorded: the gateway's storage refuses writes");

    // Raised again at every reading (nothing is stored), but not sent again.
    sample(7);
    sample(7.2);
    await settle();
    expect(alertsAt(ntfy)).toHaveLength(1);
    expect(alertsAt(hook)).toEqual([]);

    // Frost: worse, so at once, and now to the webhook too.
    sample(1);
    await expect.poll(() => alertsAt(hook)).toEqual(['CRITICAL: TEMPERATURE LOW']);
    await expect.poll(() => alertsAt(ntfy)).toEqual(['MEDIUM: TEMPERATURE LOW', 'CRITICAL: TEMPERATURE LOW']);

    sample(1);
    await settle();
    expect(alertsAt(hook)).toHaveLength(1);
    clock.advance(UNRECORDED_REPEAT_MS);
    sample(1);
    await expect.poll(() => alertsAt(hook)).toHaveLength(2);

    // Nothing of it was stored: no alert, no delivery.
    gw.database.sqlite.pragma('query_only = 0');
    expect((await http.get(`/api/alerts/${GH}?status=active`, admin)).body.data).toEqual([]);
    expect(((await http.get('/api/notifications/log?limit=100', admin)).body.data as any[]).filter((d) => d.reason === 'alert')).toEqual([]);

    // Once writes are taken, the next reading raises it as usual: stored, on the dashboard, through the outbox.
    sample(1);
    expect(await active()).toEqual(['TEMPERATURE_LOW CRITICAL']);
  });

  it('sends a stored alert that gets worse; one that cannot be resolved stays, and the rest of the reading still counts', async () => {
    readings({ temperature: 20, humidity: 22 });
    expect(await active()).toEqual(['HUMIDITY_LOW MEDIUM']);

    gw.database.sqlite.pragma('query_only = 1');
    try {
      // Its escalation is a write: refused, so it goes past the outbox.
      readings({ temperature: 20, humidity: 5 });
      await expect.poll(() => titlesAt(hook)).toContain('CRITICAL: HUMIDITY LOW');
      // Humidity is back (its resolution is refused) while the soil dries out: the dry soil still goes out.
      readings({ temperature: 20, humidity: 60, soilMoisture: 5 });
      await expect.poll(() => titlesAt(hook)).toContain('CRITICAL: SOIL MOISTURE LOW');
    } finally {
      gw.database.sqlite.pragma('query_only = 0');
    }
    expect(await active()).toEqual(['HUMIDITY_LOW MEDIUM']);
    readings({ temperature: 20, humidity: 60 });
    expect(await active()).toEqual([]);
  });
});
