// The history routes serialise their answers with JSON.stringify (server/sensors/routes.ts): the body
// must be exactly what the routes' response schemas allow, no field more, none changed. The real
// gateway over HTTP with a week of readings of every zone, gaps and nulls included.
import fastJsonStringify from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { HistoricalReply, HourlyReply, StatsReply } from '../../server/sensors/schemas.ts';
import { ReadingsRepo } from '../../server/sensors/readings-repo.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { seedReadings, type SeedReading } from '../support/seed-readings.ts';

const MINUTE = 60_000;
let gateway: TestGateway;
let http: HttpClient;
let token: string;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock();
  const nowMs = clock.now();
  gateway = await startTestGateway({}, { clock });
  http = httpClient(gateway.url);
  token = await registerUser(http, { username: 'grower' });
  const rows: SeedReading[] = [];
  for (let t = nowMs - 7 * 24 * 60 * MINUTE; t < nowMs; t += 7 * MINUTE) {
    const i = rows.length;
    // A gap of a day in the middle: the sensors were off.
    if (t > nowMs - 4 * 24 * 60 * MINUTE && t < nowMs - 3 * 24 * 60 * MINUTE) continue;
    // Every quantity of the air and soil zones, the optional ones part of the time.
    const co2Ppm = i % 12 === 0 ? null : 400 + (i % 300);
    rows.push({ takenAtMs: t, sensorType: 'DHT11', temperatureC: 18 + (i % 50) / 7, humidityPct: i % 3 === 0 ? null : 60 + (i % 9), co2Ppm, pressureHpa: 1000 + (i % 30) / 3 });
    rows.push({ takenAtMs: t, sensorType: 'LDR', lightLux: (i % 24) * 1000.123 });
    rows.push({ takenAtMs: t, sensorType: 'SOIL_MOISTURE', soilMoisturePct: 40 + (i % 5) / 3, rootTemperatureC: i % 8 === 0 ? 17 + (i % 16) / 4 : null });
    rows.push({ takenAtMs: t, sensorType: 'WATER_LEVEL', waterLevelCm: 20 + (i % 4) });
  }
  seedReadings(gateway.database.sqlite, rows);
});
afterAll(async () => gateway?.dispose());

const SCHEMAS = { historical: HistoricalReply, stats: StatsReply, hourly: HourlyReply } as const;

describe('history answers', () => {
  for (const [route, schema] of Object.entries(SCHEMAS)) {
    it(`${route}: the body is what its response schema serialises, for every range`, async () => {
      const bySchema = fastJsonStringify(schema as never);
      for (const hours of [1, 24, 168, 8760]) {
        const res = await fetch(`${gateway.url}/api/sensors/${route}/greenhouse-001?hours=${hours}`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-store');
        // A long answer goes out in pieces (server/http/json-pieces.ts): its length is still declared.
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
        const body = JSON.parse(bytes.toString('utf8')) as { success: boolean; data: unknown[] };
        if (hours >= 24) expect(body.data.length).toBeGreaterThan(0);
        expect(JSON.parse(bySchema(body))).toEqual(body);
      }
    });
  }

  it('historical of every zone, read zone by zone, is what one query over all of them gives', async () => {
    // The route reads each zone in a turn of its own, with that zone's columns only (server/sensors/routes.ts).
    const repo = new ReadingsRepo(gateway.database.sqlite);
    for (const hours of [1, 24, 168, 8760]) {
      const res = await http.get(`/api/sensors/historical/greenhouse-001?hours=${hours}`, token);
      expect(res.status).toBe(200);
      const oneQuery = JSON.parse(JSON.stringify(repo.historical('greenhouse-001', hours, clock.now())));
      expect(oneQuery.length).toBeGreaterThan(0);
      expect(res.body.data).toEqual(oneQuery);
    }
    const air = (await http.get('/api/sensors/historical/greenhouse-001?hours=168&sensorType=DHT11', token)).body.data as Array<Record<string, unknown>>;
    expect(air.some((p) => typeof p.co2 === 'number' && typeof p.pressure === 'number'), JSON.stringify(air[5])).toBe(true);
    const soil = (await http.get('/api/sensors/historical/greenhouse-001?hours=168&sensorType=SOIL_MOISTURE', token)).body.data as Array<Record<string, unknown>>;
    expect(soil.some((p) => typeof p.rootTemperature === 'number')).toBe(true);
  });

  it('stats and hourly, read zone by zone, are what one query over all zones gives', async () => {
    // A week's stats and hourly are read a zone per turn and added up (server/sensors/routes.ts).
    const repo = new ReadingsRepo(gateway.database.sqlite);
    for (const hours of [1, 24, 168, 8760]) {
      const stats = await http.get(`/api/sensors/stats/greenhouse-001?hours=${hours}`, token);
      const hourly = await http.get(`/api/sensors/hourly/greenhouse-001?hours=${hours}`, token);
      expect([stats.status, hourly.status]).toEqual([200, 200]);
      expect(stats.body.data).toEqual(JSON.parse(JSON.stringify(repo.stats('greenhouse-001', hours, clock.now()))));
      expect(hourly.body.data).toEqual(JSON.parse(JSON.stringify(repo.hourly('greenhouse-001', hours, clock.now()))));
      if (hours >= 24) {
        expect((stats.body.data as Array<{ _id: string }>).map((s) => s._id)).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']);
        expect((hourly.body.data as Array<{ count: number }>).reduce((sum, h) => sum + h.count, 0)).toBeGreaterThan(0);
      }
    }
  });

  it('historical for one sensor type as well', async () => {
    const res = await http.get('/api/sensors/historical/greenhouse-001?hours=168&sensorType=DHT11', token);
    expect(res.status).toBe(200);
    expect(JSON.parse(fastJsonStringify(HistoricalReply as never)(res.body))).toEqual(res.body);
    expect((res.body.data as Array<{ sensorType: string }>).every((r) => r.sensorType === 'DHT11')).toBe(true);
  });
});
