import { get, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { seedReadings } from '../support/seed-readings.ts';
import { localIsoTimestamp } from '../../server/analytics/csv-format.ts';

const HOUR_MS = 3_600_000;
let gateway: TestGateway;
let http: HttpClient;
let viewer: string;
let grower: string;
let nowMs: number;

beforeAll(async () => {
  const clock = new ManualClock();
  nowMs = clock.now();
  gateway = await startTestGateway({}, { clock });
  http = httpClient(gateway.url);
  const admin = await registerUser(http, { username: 'boss' });
  viewer = await registerUser(http, { username: 'watcher', role: 'viewer' }, admin);
  grower = await registerUser(http, { username: 'grower', role: 'viewer' }, admin);
  seedReadings(gateway.database.sqlite, [
    { takenAtMs: nowMs - 2 * HOUR_MS, sensorType: 'DHT11', temperatureC: 18, humidityPct: 70 },
    { takenAtMs: nowMs - 30 * 60_000, sensorType: 'DHT11', temperatureC: 21.4876, humidityPct: 64.2 },
    { takenAtMs: nowMs - 30 * 60_000, sensorType: 'LDR', lightLux: 11891.079633072639 },
    { takenAtMs: nowMs - 10 * 60_000, sensorType: 'SOIL_MOISTURE', soilMoisturePct: 41.3 },
    { takenAtMs: nowMs - 5 * 60_000, sensorType: 'WATER_LEVEL', waterLevelCm: 22 },
    { takenAtMs: nowMs - 5 * 60_000, sensorType: 'DHT11', greenhouseId: 'elsewhere', temperatureC: 99 },
    { takenAtMs: nowMs - 200 * HOUR_MS, sensorType: 'DHT11', temperatureC: 5 },
  ]);
});
afterAll(async () => gateway?.dispose());

// The gateway's local time with its offset, and values rounded as the dashboard shows them.
const iso = (ms: number) => localIsoTimestamp(ms);

describe('GET /api/analytics/export/:greenhouseId', () => {
  it('writes local time with its offset, exactly the same instant', () => {
    const ms = Date.UTC(2026, 2, 5, 13, 3, 9);
    expect(localIsoTimestamp(ms)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(Date.parse(localIsoTimestamp(ms))).toBe(ms);
  });

  it('answers the readings of the range as a CSV attachment, oldest first, rounded as shown', async () => {
    const res = await http.get('/api/analytics/export/greenhouse-001?hours=1', viewer);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="greenhouse-001-readings-1h-\d{8}-\d{6}\.csv"$/);
    expect(res.body).toBe(
      [
        'timestamp,sensorType,temperature,humidity,lightIntensity,soilMoisture,waterLevel,co2,pressure,rootTemperature',
        `${iso(nowMs - 30 * 60_000)},DHT11,21.5,64.2,,,,,,`,
        `${iso(nowMs - 30 * 60_000)},LDR,,,11891,,,,,`,
        `${iso(nowMs - 10 * 60_000)},SOIL_MOISTURE,,,,41.3,,,,`,
        `${iso(nowMs - 5 * 60_000)},WATER_LEVEL,,,,,22,,,`,
        '',
      ].join('\n'),
    );
  });

  it('defaults to 24 hours, honours the alias and the week range', async () => {
    const day = await http.get('/api/analytics/export/default', viewer);
    expect(day.status).toBe(200);
    expect(day.body.trim().split('\n')).toHaveLength(1 + 5);
    const week = await http.get('/api/analytics/export/greenhouse-001?hours=168', viewer);
    expect(week.body.trim().split('\n')).toHaveLength(1 + 5);
  });

  it.each(['5', '0', '-1', 'abc', '24.5', '9999'])('refuses hours=%s naming the field', async (hours) => {
    const res = await http.get(`/api/analytics/export/greenhouse-001?hours=${hours}`, viewer);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain('hours');
  });

  it('needs a bearer token and a known greenhouse', async () => {
    expect((await http.get('/api/analytics/export/greenhouse-001?hours=1')).status).toBe(401);
    expect((await http.get('/api/analytics/export/greenhouse-002?hours=1', viewer)).status).toBe(404);
  });

  it('leaves the main connection free to write while a large export is being read', async () => {
    seedReadings(gateway.database.sqlite, Array.from({ length: 20_000 }, (_, i) => ({ takenAtMs: nowMs - 20 * HOUR_MS + i, temperatureC: 20 })));
    const response = await fetch(`${gateway.url}/api/analytics/export/greenhouse-001?hours=24`, { headers: { authorization: `Bearer ${viewer}` } });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The download's query is still open: a sampling tick must still be able to insert.
    expect(seedReadings(gateway.database.sqlite, [{ takenAtMs: nowMs, temperatureC: 25 }])).toBe(1);
    let text = new TextDecoder().decode(first.value);
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text.trim().split('\n').length).toBeGreaterThanOrEqual(1 + 5 + 20_000);
  });

  it('refuses a third concurrent download with 429, and frees the slot when one is abandoned', async () => {
    // One slot per account (access-caps-and-names.test.ts): two accounts hold the two slots here.
    // Far more than loopback socket buffers hold, so an unread download really stays open.
    seedReadings(gateway.database.sqlite, Array.from({ length: 300_000 }, (_, i) => ({ takenAtMs: nowMs - 10 * HOUR_MS + i, temperatureC: 20 })));
    // node:http without an agent: undici opens a spare keep-alive connection after an abort, which then
    // holds the server's close() until its headers timeout.
    const open = (token: string) =>
      new Promise<ClientRequest>((resolve, reject) => {
        const request = get(`${gateway.url}/api/analytics/export/greenhouse-001?hours=24`, {
          headers: { authorization: `Bearer ${token}` },
          agent: false,
        });
        request.on('response', (response) =>
          response.once('data', () => {
            response.pause(); // stop reading: the server's stream now waits on backpressure
            resolve(request);
          }),
        );
        request.on('error', reject);
      });
    const first = await open(viewer);
    const second = await open(grower);
    const third = await http.get('/api/analytics/export/greenhouse-001?hours=24', viewer);
    expect(third.status).toBe(429);
    expect(third.body.message).toContain('export');
    first.destroy();
    second.destroy();
    // Aborting closes the sockets; the server notices and releases the slots.
    let again = await http.get('/api/analytics/export/greenhouse-001?hours=1', viewer);
    for (let attempt = 0; again.status === 429 && attempt < 50; attempt++) {
      await new Promise((resolve) => setImmediate(resolve));
      again = await http.get('/api/analytics/export/greenhouse-001?hours=1', viewer);
    }
    expect(again.status).toBe(200);
  });
});
