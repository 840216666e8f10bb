import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../../../server/db/open.ts';
import { HISTORY_BUCKET_MS, ReadingsRepo, type NewReading } from '../../../../server/sensors/readings-repo.ts';
import { sensorStatus } from '../../../../server/sensors/status.ts';
import { inTimeZone } from '../../../support/time-zone.ts';

const G = 'greenhouse-001';
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
let dir: string;
let database: OpenedDatabase;
let repo: ReadingsRepo;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'readings-'));
  database = openDatabase(dir); // the real migrations
  repo = new ReadingsRepo(database.sqlite);
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

function tickAt(ms: number, t = 20): NewReading[] {
  return [
    { sensorType: 'DHT11', takenAtMs: ms, temperatureC: t, humidityPct: 60 },
    { sensorType: 'LDR', takenAtMs: ms, lightLux: 800 },
    { sensorType: 'SOIL_MOISTURE', takenAtMs: ms, soilMoisturePct: 35 },
    { sensorType: 'WATER_LEVEL', takenAtMs: ms, waterLevelCm: 25 },
  ];
}

describe('ReadingsRepo', () => {
  it('stores a tick in one transaction and answers the latest per sensor type', () => {
    repo.insertTick(G, tickAt(NOW - 10_000, 19));
    const stored = repo.insertTick(G, tickAt(NOW, 21));
    expect(stored).toHaveLength(4);
    const latest = repo.latest(G);
    expect(latest.map((r) => r.sensorType)).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']);
    expect(latest[0]).toMatchObject({ temperature: 21, humidity: 60, value: 21, unit: '°C', timestamp: new Date(NOW).toISOString() });
    expect(latest[0]).not.toHaveProperty('lightIntensity');
    expect(latest[1]).toMatchObject({ lightIntensity: 800, value: 800, unit: 'lux' });
  });

  it('rolls a failed tick back whole', () => {
    const bad = [...tickAt(NOW), { sensorType: 'NOPE', takenAtMs: null } as unknown as NewReading];
    expect(() => repo.insertTick(G, bad)).toThrow();
    expect(repo.latest(G)).toEqual([]);
  });

  it('downsamples a week in SQL to a bounded number of points per series, keeping gaps as gaps', () => {
    // A week at one reading a minute, with the gateway off for 3 hours two days ago.
    const gapStart = NOW - 48 * HOUR;
    const gapEnd = gapStart + 3 * HOUR;
    const insert = database.sqlite.transaction(() => {
      for (let t = NOW - 168 * HOUR; t <= NOW; t += 60_000) {
        if (t >= gapStart && t < gapEnd) continue;
        repo.insertTick(G, tickAt(t, 15 + ((t / 60_000) % 10)));
      }
    });
    insert();
    const points = repo.historical(G, 168, NOW);
    const bucketMs = HISTORY_BUCKET_MS[168]!;
    for (const type of ['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']) {
      const series = points.filter((p) => p.sensorType === type);
      expect(series.length).toBeLessThan(2000);
      expect(series.length).toBeLessThanOrEqual(168 * 6 + 1);
      const times = series.map((p) => Date.parse(p.timestamp));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // No point inside the gap, and the gap shows as missing buckets (a step wider than one bucket).
      expect(times.filter((t) => t >= gapStart && t + bucketMs <= gapEnd)).toEqual([]);
      const wide = times.slice(1).filter((t, i) => t - times[i]! > bucketMs);
      expect(wide).toHaveLength(1);
      expect(series.every((p) => p.bucketMs === bucketMs && Date.parse(p.timestamp) % bucketMs === 0)).toBe(true);
    }
    const dht = points.find((p) => p.sensorType === 'DHT11' && p.timestamp === new Date(NOW - 24 * HOUR).toISOString())!;
    expect(dht.temperature).toBeCloseTo(19.5, 5); // the average of 15..24 over a 10-minute bucket
    expect(dht.humidity).toBe(60);
    // time-ordered across sensor types
    const all = points.map((p) => Date.parse(p.timestamp));
    expect(all).toEqual([...all].sort((a, b) => a - b));
    // filtering by sensor type
    expect(repo.historical(G, 168, NOW, 'LDR').every((p) => p.sensorType === 'LDR' && p.lightIntensity === 800)).toBe(true);
  });

  it('limits history to the range asked', () => {
    repo.insertTick(G, tickAt(NOW - 2 * HOUR));
    repo.insertTick(G, tickAt(NOW - 30 * 60_000));
    expect(repo.historical(G, 1, NOW)).toHaveLength(4);
    expect(repo.historical(G, 6, NOW)).toHaveLength(8);
  });

  it('averages per sensor type (stats) and per local hour of day (hourly), rounded as the spec says', () => {
    const at = (hour: number, minute: number) => new Date(2026, 10, 22, hour, minute).getTime(); // local time
    const now = at(23, 59);
    repo.insertTick(G, [
      { sensorType: 'DHT11', takenAtMs: at(9, 10), temperatureC: 20.04, humidityPct: 50 },
      { sensorType: 'LDR', takenAtMs: at(9, 10), lightLux: 100.4 },
    ]);
    repo.insertTick(G, [
      { sensorType: 'DHT11', takenAtMs: at(9, 40), temperatureC: 21.12, humidityPct: 55 },
      { sensorType: 'SOIL_MOISTURE', takenAtMs: at(14, 5), soilMoisturePct: 33.33 },
    ]);
    const hourly = repo.hourly(G, 24, now);
    expect(hourly).toHaveLength(24);
    expect(hourly[9]).toEqual({ hour: 9, count: 3, avgTemperature: 20.6, avgHumidity: 52.5, avgLightIntensity: 100, avgSoilMoisture: null });
    expect(hourly[14]).toMatchObject({ count: 1, avgSoilMoisture: 33.3 });
    expect(hourly[3]).toEqual({ hour: 3, count: 0, avgTemperature: null, avgHumidity: null, avgLightIntensity: null, avgSoilMoisture: null });

    const stats = repo.stats(G, 24, now);
    expect(stats.map((s) => s._id)).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE']);
    expect(stats[0]).toMatchObject({ _id: 'DHT11', count: 2, avgTemperature: 20.58, avgHumidity: 52.5, avgLightIntensity: null });
    expect(repo.stats(G, 1, now)).toEqual([]);
  });
});

describe('hourly analytics where the local hours do not start on UTC hours', () => {
  inTimeZone('Asia/Kolkata'); // +5:30 all year

  it('puts 20:40 and 21:10 local time in hours 20 and 21 (one UTC hour, 15:00-16:00, holds both)', () => {
    const at = (hour: number, minute: number) => new Date(2026, 10, 22, hour, minute).getTime();
    const now = at(23, 59);
    repo.insertTick(G, [{ sensorType: 'DHT11', takenAtMs: at(20, 40), temperatureC: 20, humidityPct: 50 }]);
    repo.insertTick(G, [{ sensorType: 'DHT11', takenAtMs: at(21, 10), temperatureC: 24, humidityPct: 60 }]);
    for (const hours of [24, 168]) {
      const hourly = repo.hourly(G, hours, now);
      expect(hourly[20], `${hours} h`).toMatchObject({ hour: 20, count: 1, avgTemperature: 20 });
      expect(hourly[21], `${hours} h`).toMatchObject({ hour: 21, count: 1, avgTemperature: 24 });
    }
    // Longer ranges read the hourly rollups only: each UTC hour falls in the local hour it starts in.
    for (const hours of [720, 8760]) expect(repo.hourly(G, hours, now)[20], `${hours} h`).toMatchObject({ count: 2, avgTemperature: 22 });
  });
});

describe('sensorStatus', () => {
  it('is offline without a reading, warning after 5 minutes, online otherwise', () => {
    expect(sensorStatus(null, NOW)).toBe('offline');
    expect(sensorStatus(NOW - 5 * 60_000, NOW)).toBe('online');
    expect(sensorStatus(NOW - 5 * 60_000 - 1, NOW)).toBe('warning');
    expect(sensorStatus(NOW, NOW)).toBe('online');
  });
});
