import { get, type ClientRequest } from 'node:http';
import Value from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema, type Config } from '../../server/config/schema.ts';
import { databaseChecksum } from '../support/db-checksum.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { seedReadings } from '../support/seed-readings.ts';

/**
 * Access: the smaller findings, tried as an attacker with an account would (real HTTP,
 * real SQLite): a device flood, names that show nothing, ids that break MQTT topics, one viewer
 * holding every export slot.
 */
const GH = 'greenhouse-001';
const defaultLimits = (Value.Default(ConfigSchema, {}) as Config).limits;

describe('devices: a cap, visible names and topic-safe ids', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  beforeAll(async () => {
    // The default wiring has 6 configured devices: a cap of 8 leaves room for two more.
    gw = await startTestGateway({ limits: { ...defaultLimits, maxDevices: 8 } }, { clock: new ManualClock() });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner' });
  });
  afterAll(() => gw.dispose());

  const add = (body: Record<string, unknown>) => http.post('/api/devices', { deviceType: 'FAN', powerConsumption: 20, ...body }, admin);

  /** A refusal that names its field and changes nothing in the database. */
  async function expectRefused(call: () => Promise<{ status: number; body: any }>, status: number, field: string) {
    const before = databaseChecksum(gw);
    const res = await call();
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain(field);
    expect(databaseChecksum(gw)).toBe(before);
    return res;
  }

  it('refuses device ids that would break MQTT topics (/, #, +, whitespace) with a 400 naming deviceId', async () => {
    for (const deviceId of ['pump/#', 'fan+', 'a#', 'two words', 'tab\there', 'x/y', ' lead', 'ü-umlaut']) {
      const res = await expectRefused(() => add({ deviceName: 'Sneaky', deviceId }), 400, 'deviceId');
      expect(res.body.message).toMatch(/letters, digits, _ and -/);
    }
  });

  it('refuses names without a visible character, on create and on rename (400 naming the field)', async () => {
    for (const blank of ['   ', '\u00a0\u00a0', '\u3164', '\u2800\u2800', ' \u2003 ']) {
      const res = await expectRefused(() => add({ deviceName: blank, deviceId: 'blank-fan' }), 400, 'deviceName');
      expect(res.body.message).toMatch(/visible character/);
      await expectRefused(() => add({ deviceName: 'Fan', deviceId: 'blank-fan', location: blank }), 400, 'location');
      await expectRefused(() => http.put(`/api/devices/fan-1`, { deviceName: blank }, admin), 400, 'deviceName');
    }
    // A name with spaces around a visible character is still a name.
    const ok = await add({ deviceName: '  Fan 2 ', deviceId: 'fan-2' });
    expect(ok.status).toBe(201);
  });

  it('refuses a device beyond limits.maxDevices with 409 saying the number, and allows one again after a removal', async () => {
    expect((await add({ deviceName: 'Fan 3', deviceId: 'fan-3' })).status).toBe(201);
    const res = await expectRefused(() => add({ deviceName: 'Fan 4', deviceId: 'fan-4' }), 409, '8 devices');
    expect(res.body.message).toContain('limits.maxDevices');
    // A flood gets the same answer every time and never a row.
    const flood = await Promise.all(Array.from({ length: 20 }, (_, i) => add({ deviceName: `Flood ${i}`, deviceId: `flood-${i}` })));
    expect(flood.every((r) => r.status === 409)).toBe(true);
    expect((await http.get(`/api/devices/${GH}`, admin)).body.data).toHaveLength(8);
    expect((await http.del(`/api/devices/fan-3`, admin)).status).toBe(200);
    expect((await add({ deviceName: 'Fan 4', deviceId: 'fan-4' })).status).toBe(201);
  });
});

describe('report exports: one slot per account', () => {
  const HOUR_MS = 3_600_000;
  let gw: TestGateway;
  let http: HttpClient;
  const tokens: Record<string, string> = {};
  const held: ClientRequest[] = [];
  beforeAll(async () => {
    const clock = new ManualClock();
    gw = await startTestGateway({}, { clock });
    http = httpClient(gw.url);
    const admin = await registerUser(http, { username: 'owner' });
    for (const name of ['mallory', 'victor', 'walter']) tokens[name] = await registerUser(http, { username: name, role: 'viewer' }, admin);
    // Far more than loopback socket buffers hold, so an unread download really stays open.
    seedReadings(gw.database.sqlite, Array.from({ length: 300_000 }, (_, i) => ({ takenAtMs: clock.now() - 10 * HOUR_MS + i, temperatureC: 20 })));
  });
  afterAll(async () => {
    held.forEach((r) => r.destroy());
    await gw.dispose();
  });

  /** A download that is started and then not read (node:http without an agent, see analytics-export.test.ts). */
  const hold = (token: string) =>
    new Promise<ClientRequest>((resolve, reject) => {
      const request = get(`${gw.url}/api/analytics/export/${GH}?hours=24`, { headers: { authorization: `Bearer ${token}` }, agent: false });
      request.on('response', (response) => {
        if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
        response.once('data', () => {
          response.pause();
          resolve(request);
        });
      });
      request.on('error', reject);
      held.push(request);
    });

  it('a viewer holding one export cannot take the second slot; another account can; a third is refused in all', async () => {
    const first = await hold(tokens.mallory!);
    const again = await http.get(`/api/analytics/export/${GH}?hours=24`, tokens.mallory);
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/per account/);
    // Mallory's refused attempts did not take the slot she could not have: Victor still gets it.
    await hold(tokens.victor!);
    const third = await http.get(`/api/analytics/export/${GH}?hours=1`, tokens.walter);
    expect(third.status).toBe(429);
    expect(third.body.message).toMatch(/at most 2 at once/);
    // Mallory lets hers go: her slot is free again, for her.
    first.destroy();
    let retry = await http.get(`/api/analytics/export/${GH}?hours=1`, tokens.mallory);
    for (let attempt = 0; retry.status === 429 && attempt < 50; attempt++) {
      await new Promise((resolve) => setImmediate(resolve));
      retry = await http.get(`/api/analytics/export/${GH}?hours=1`, tokens.mallory);
    }
    expect(retry.status).toBe(200);
  });
});
