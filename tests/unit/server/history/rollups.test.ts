import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SensorType } from '../../../../server/contract/reading.ts';
import { openDatabase, type OpenedDatabase } from '../../../../server/db/open.ts';
import { RollupCatchUp } from '../../../../server/history/rollup-catch-up.ts';
import { FIELD_COLUMNS, ROLLUP_RESOLUTIONS_MS } from '../../../../server/history/rollup-levels.ts';
import { RollupWriter } from '../../../../server/history/rollup-writer.ts';
import { ReadingsRepo, type NewReading } from '../../../../server/sensors/readings-repo.ts';

const G = 'greenhouse-001';
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);
let dir: string;
let database: OpenedDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rollups-'));
  database = openDatabase(dir);
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The rollups as the raw rows say they should be, per resolution (the definition, in plain SQL). */
function expectedRollups(resolutionMs: number) {
  const cols = FIELD_COLUMNS.map((c) => `count(${c}) AS ${c}_n, min(${c}) AS ${c}_min, max(${c}) AS ${c}_max, total(${c}) AS ${c}_sum`).join(', ');
  return database.sqlite
    .prepare(
      `SELECT (taken_at / ${resolutionMs}) * ${resolutionMs} AS bucket_at, greenhouse_id, sensor_type, count(*) AS n, ${cols}
       FROM readings GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
    .all() as Array<Record<string, number | string | null>>;
}

function storedRollups(resolutionMs: number) {
  const cols = FIELD_COLUMNS.map((c) => `${c}_n, ${c}_min, ${c}_max, ${c}_sum`).join(', ');
  return database.sqlite
    .prepare(`SELECT bucket_at, greenhouse_id, sensor_type, n, ${cols} FROM reading_rollups WHERE resolution_ms = ? ORDER BY 1, 2, 3`)
    .all(resolutionMs) as Array<Record<string, number | string | null>>;
}

/** Equal, with sums compared to a relative 1e-9 (they are added in another order). */
function expectSameAggregates(actual: Array<Record<string, unknown>>, expected: Array<Record<string, unknown>>) {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) => {
    for (const [key, value] of Object.entries(expected[i]!)) {
      if (key.endsWith('_sum')) expect(row[key] as number).toBeCloseTo(value as number, 6);
      else expect(row[key], key).toEqual(value);
    }
  });
}

const value = fc.option(fc.double({ min: -50, max: 2000, noNaN: true, noDefaultInfinity: true }), { nil: null, freq: 4 });
const tickArb = fc.record({
  // Gaps of up to 3 h between ticks, often within the same minute.
  gapMs: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 3 * HOUR })),
  types: fc.subarray(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL'] as SensorType[], { minLength: 1 }),
  values: fc.tuple(value, value, value, value, value),
  greenhouseId: fc.constantFrom(G, G, G, 'greenhouse-002'),
});

type TickSpec = typeof tickArb extends fc.Arbitrary<infer T> ? T : never;

function ticksFrom(specs: TickSpec[]) {
  let at = T0;
  return specs.map((spec) => {
    at += spec.gapMs;
    const [t, h, l, s, w] = spec.values;
    const rows: NewReading[] = spec.types.map((sensorType) => ({ sensorType, takenAtMs: at, temperatureC: t, humidityPct: h, lightLux: l, soilMoisturePct: s, waterLevelCm: w }));
    return { greenhouseId: spec.greenhouseId, rows };
  });
}

describe('rollups', () => {
  it('equal the raw aggregates they summarise, at every resolution, over random ticks with gaps', () => {
    fc.assert(
      fc.property(fc.array(tickArb, { minLength: 1, maxLength: 60 }), (specs) => {
        database.sqlite.exec('DELETE FROM readings; DELETE FROM reading_rollups; DELETE FROM rollup_watermark;');
        const repo = new ReadingsRepo(database.sqlite);
        for (const tick of ticksFrom(specs)) repo.insertTick(tick.greenhouseId, tick.rows);
        expect(repo.pendingRollupRows()).toBe(0);
        for (const resolutionMs of ROLLUP_RESOLUTIONS_MS) expectSameAggregates(storedRollups(resolutionMs), expectedRollups(resolutionMs));
      }),
      { numRuns: 60 },
    );
  });

  it('answer history, stats and hourly as the raw rows do, for any range and moment', () => {
    fc.assert(
      fc.property(
        fc.array(tickArb, { minLength: 1, maxLength: 80 }),
        fc.constantFrom(1, 6, 24, 72, 168, 720, 8760),
        // The range's start or end lands within 90 s of a tick (edges are where rollups and raw rows meet).
        fc.record({ tick: fc.nat(), deltaMs: fc.integer({ min: -90_000, max: 90_000 }), edge: fc.constantFrom('start', 'end') }),
        (specs, hours, at) => {
          database.sqlite.exec('DELETE FROM readings; DELETE FROM reading_rollups; DELETE FROM rollup_watermark;');
          const repo = new ReadingsRepo(database.sqlite);
          const raw = new ReadingsRepo(database.sqlite, { rollups: false });
          const ticks = ticksFrom(specs);
          for (const tick of ticks) repo.insertTick(tick.greenhouseId, tick.rows);
          const anchorMs = ticks[at.tick % ticks.length]!.rows[0]!.takenAtMs + at.deltaMs;
          const now = at.edge === 'end' ? anchorMs : anchorMs + hours * HOUR;
          const close = (a: unknown, b: unknown) => JSON.stringify(a, (_k, v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v)) === JSON.stringify(b, (_k, v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v));
          const fromRollups = repo.historical(G, hours, now);
          const fromRaw = raw.historical(G, hours, now);
          expect(close(fromRollups, fromRaw), `historical ${hours} h`).toBe(true);
          expect(repo.stats(G, hours, now).map((s) => s.count)).toEqual(raw.stats(G, hours, now).map((s) => s.count));
          expect(close(repo.stats(G, hours, now), raw.stats(G, hours, now))).toBe(true);
          expect(close(repo.hourly(G, hours, now), raw.hourly(G, hours, now))).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });
});
