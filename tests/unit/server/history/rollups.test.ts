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
import { RawScanHistory } from '../../../support/raw-scan-history.ts';

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
          const raw = new ReadingsRepo(database.sqlite, { history: new RawScanHistory(database.sqlite) });
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

/** Writes readings straight into the table, as a restore or another program would (no rollups). */
function insertRaw(rows: Array<{ takenAtMs: number; sensorType: SensorType; value: number }>) {
  const insert = database.sqlite.prepare(
    `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm)
     VALUES ('greenhouse-001', ?, ?, ?, ?, ?, ?, ?)`,
  );
  database.sqlite.transaction(() => {
    for (const r of rows) {
      const v = r.value;
      if (r.sensorType === 'DHT11') insert.run(r.sensorType, r.takenAtMs, v, 100 - v, null, null, null);
      else if (r.sensorType === 'LDR') insert.run(r.sensorType, r.takenAtMs, null, null, v * 10, null, null);
      else insert.run(r.sensorType, r.takenAtMs, null, null, null, v, null);
    }
  })();
}

/** A day at one reading every 5 s for two sensors, with the 3rd hour missing. */
function rawDay(startMs: number) {
  const rows: Array<{ takenAtMs: number; sensorType: SensorType; value: number }> = [];
  for (let t = startMs; t < startMs + 24 * HOUR; t += 5_000) {
    if (t >= startMs + 2 * HOUR && t < startMs + 3 * HOUR) continue;
    rows.push({ takenAtMs: t, sensorType: 'DHT11', value: 15 + ((t / 5_000) % 13) }, { takenAtMs: t, sensorType: 'SOIL_MOISTURE', value: 30 + ((t / 5_000) % 7) });
  }
  return rows;
}

const expectRollupsCurrent = () => {
  for (const resolutionMs of ROLLUP_RESOLUTIONS_MS) expectSameAggregates(storedRollups(resolutionMs), expectedRollups(resolutionMs));
  const { foldedThroughId, maxId } = new RollupWriter(database.sqlite).backlog();
  expect(foldedThroughId).toBe(maxId);
};

describe('rollup catch-up', () => {
  it('folds raw rows written behind its back from the watermark, in slices that give the event loop back', async () => {
    insertRaw(rawDay(T0));
    const writer = new RollupWriter(database.sqlite);
    expect(writer.backlog().foldedThroughId).toBe(0);
    // Part of it folded already (a catch-up interrupted by a restart): the rest goes on from there.
    expect(writer.foldPending(5_000)).toBeGreaterThan(20_000);
    expect(writer.backlog().foldedThroughId).toBe(5_000);

    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const catchUp = new RollupCatchUp({ writer });
    catchUp.start();
    await catchUp.whenCurrent();
    spinning = false;
    writer.foldPending(); // what is left is at most a tick's worth, folded inline by the next read
    expect(turns).toBeGreaterThan(3);
    expectRollupsCurrent();
    await catchUp.stop();
  });

  it('says how far it is while it runs: a growing share with an estimate, nothing once through', async () => {
    insertRaw(rawDay(T0));
    const catchUp = new RollupCatchUp({ writer: new RollupWriter(database.sqlite) });
    expect(catchUp.progress()).toBeNull();
    catchUp.start();
    // Its first slice is folded at once (without a newest-reading scan before it).
    expect(catchUp.progress()!.donePct).toBeLessThan(50);
    const seen: number[] = [];
    let estimated = false;
    while (catchUp.progress() !== null) {
      const progress = catchUp.progress()!;
      seen.push(progress.donePct);
      if (progress.leftSeconds !== null) estimated = true;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen.length).toBeGreaterThan(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeGreaterThan(0);
    expect(seen.at(-1)).toBeLessThanOrEqual(100);
    expect(estimated).toBe(true);
    await catchUp.stop();
  });

  it('counts every row once when stopped midway and started again, with ticks arriving meanwhile', async () => {
    insertRaw(rawDay(T0));
    const repo = new ReadingsRepo(database.sqlite);
    const first = new RollupCatchUp({ writer: new RollupWriter(database.sqlite) });
    first.start();
    await new Promise((resolve) => setImmediate(resolve));
    await first.stop();
    const left = repo.pendingRollupRows();
    expect(left).toBeGreaterThan(0);
    // A tick while far behind stores its rows and leaves them to the catch-up.
    repo.insertTick(G, [{ sensorType: 'LDR', takenAtMs: T0 + 25 * HOUR, lightLux: 123 }]);
    expect(repo.pendingRollupRows()).toBe(left + 1);

    const second = new RollupCatchUp({ writer: new RollupWriter(database.sqlite) });
    second.start();
    await second.whenCurrent();
    await second.stop();
    // Once current, a tick folds itself in its own transaction.
    repo.insertTick(G, [{ sensorType: 'LDR', takenAtMs: T0 + 26 * HOUR, lightLux: 456 }]);
    repo.foldRollups();
    expectRollupsCurrent();
  });

  it('keeps gaps as gaps: an hour without rows has no bucket at any level, and history shows the hole', () => {
    insertRaw(rawDay(T0));
    const repo = new ReadingsRepo(database.sqlite);
    repo.foldRollups();
    for (const resolutionMs of ROLLUP_RESOLUTIONS_MS) {
      const inGap = database.sqlite
        .prepare(`SELECT count(*) FROM reading_rollups WHERE resolution_ms = ? AND bucket_at >= ? AND bucket_at < ?`)
        .pluck()
        .get(resolutionMs, T0 + 2 * HOUR, T0 + 3 * HOUR);
      expect(inGap, `${resolutionMs} ms level`).toBe(0);
    }
    const points = repo.historical(G, 24, T0 + 24 * HOUR - 1, 'DHT11');
    const times = points.map((p) => Date.parse(p.timestamp));
    expect(times.filter((t) => t >= T0 + 2 * HOUR && t < T0 + 3 * HOUR)).toEqual([]);
    const steps = times.slice(1).map((t, i) => t - times[i]!);
    expect(steps.filter((step) => step > points[0]!.bucketMs!)).toEqual([HOUR + points[0]!.bucketMs!]);
  });

  it('gives each historical point the min and max of its bucket around the mean', () => {
    const repo = new ReadingsRepo(database.sqlite);
    // A 1-minute spike to 40 °C inside a 10-minute bucket of 20 °C.
    for (let t = T0; t < T0 + 10 * 60_000; t += 5_000) {
      const spike = t >= T0 + 3 * 60_000 && t < T0 + 4 * 60_000;
      repo.insertTick(G, [{ sensorType: 'DHT11', takenAtMs: t, temperatureC: spike ? 40 : 20, humidityPct: 50 }]);
    }
    const [point] = repo.historical(G, 168, T0 + 10 * 60_000 - 1);
    expect(point).toMatchObject({ bucketMs: 600_000, min: { temperature: 20, humidity: 50 }, max: { temperature: 40, humidity: 50 } });
    expect(point!.temperature).toBeCloseTo(22, 6);
  });
});
