import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SENSOR_TYPES, type SensorType } from '../../../../server/contract/reading.ts';
import { openDatabase, type OpenedDatabase } from '../../../../server/db/open.ts';
import { RollupCatchUp } from '../../../../server/history/rollup-catch-up.ts';
import { RollupWriter } from '../../../../server/history/rollup-writer.ts';
import { NewestReading } from '../../../../server/sensors/newest-reading.ts';
import { ReadingsRepo } from '../../../../server/sensors/readings-repo.ts';

const G = 'greenhouse-001';
const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);
let dir: string;
let database: OpenedDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'newest-reading-'));
  database = openDatabase(dir);
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The definition, in plain SQL over the raw table. */
function newestBySql(sensorType: SensorType): { id: number; taken_at: number } | undefined {
  return database.sqlite
    .prepare(`SELECT id, taken_at FROM readings WHERE sensor_type = ? AND greenhouse_id = ? ORDER BY taken_at DESC, id DESC LIMIT 1`)
    .get(sensorType, G) as { id: number; taken_at: number } | undefined;
}

function insertRaw(sensorType: SensorType, takenAtMs: number): void {
  database.sqlite.prepare(`INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c) VALUES (?, ?, ?, 20)`).run(G, sensorType, takenAtMs);
}

describe('the newest reading of a sensor without a (sensor_type, taken_at) index', () => {
  it('readings keeps one index, on time: a commit touches one insertion point, not one per sensor', () => {
    const indexes = database.sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'readings' AND sql IS NOT NULL`).pluck().all();
    expect(indexes).toEqual(['readings_taken_at_idx']);
  });

  it('agrees with the plain query over folded, unfolded, out-of-order and missing sensors', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ sensor: fc.constantFrom<SensorType>('DHT11', 'LDR', 'SOIL_MOISTURE'), offsetMs: fc.integer({ min: 0, max: 5 * 3_600_000 }), foldAfter: fc.boolean() }),
          { maxLength: 40 },
        ),
        (steps) => {
          database.sqlite.exec('DELETE FROM readings; DELETE FROM reading_rollups; DELETE FROM rollup_watermark;');
          const writer = new RollupWriter(database.sqlite);
          const repo = new ReadingsRepo(database.sqlite, { rollupWriter: writer });
          for (const step of steps) {
            insertRaw(step.sensor, T0 + step.offsetMs);
            if (step.foldAfter) writer.foldPending();
          }
          for (const type of SENSOR_TYPES) {
            const expected = newestBySql(type);
            const found = repo.latest(G).find((r) => r.sensorType === type);
            expect(found ? Date.parse(found.timestamp) : undefined).toBe(expected?.taken_at);
            if (found) expect(found._id).toBe(String(expected!.id));
            expect(repo.lastTakenAtMs(G, type)).toBe(expected?.taken_at ?? null);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with a backlog larger than a slice, answers sensors that report now at once and the rest once scanned, never newer than true', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            sensor: fc.constantFrom<SensorType>('DHT11', 'LDR', 'SOIL_MOISTURE'),
            // Quarter hours over five hours: two rows of a sensor at one instant are common, as after a restart.
            offsetMs: fc.integer({ min: 0, max: 20 }).map((quarter) => quarter * 900_000),
            // Folds now and then: most rows stay above the watermark, where the slices are.
            foldAfter: fc.constantFrom(false, false, false, true),
            scanAfter: fc.boolean(),
            deleteAfter: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 6 }),
        (steps, madeAfter, sliceRows) => {
          database.sqlite.exec('DELETE FROM readings; DELETE FROM reading_rollups; DELETE FROM rollup_watermark;');
          const writer = new RollupWriter(database.sqlite);
          let newest: NewestReading | undefined;
          let horizonMs = 0;
          const check = () => {
            for (const type of SENSOR_TYPES) {
              const expected = newestBySql(type);
              const found = newest!.find(G, type);
              if (newest!.scannedToWatermark()) {
                expect(found ? Number(found.id) : undefined).toBe(expected?.id);
              } else if (found) {
                // Not scanned through yet: an older reading of the sensor at worst, never a newer one.
                expect(found.sensor_type).toBe(type);
                expect(Number(found.taken_at)).toBeLessThanOrEqual(expected!.taken_at);
              }
            }
          };
          steps.forEach((step, i) => {
            if (i === madeAfter) newest = new NewestReading(database.sqlite, { sliceRows });
            // Nothing is stored behind the retention horizon (the clock-step guard keeps each sensor's rows in order).
            insertRaw(step.sensor, Math.max(horizonMs, T0 + step.offsetMs));
            if (step.foldAfter) writer.foldPending();
            // Retention takes every row before a moment: whatever was scanned may be gone.
            if (step.deleteAfter && i % 5 === 4) {
              horizonMs = (database.sqlite.prepare('SELECT min(taken_at) FROM readings').pluck().get() as number) + 1;
              database.sqlite.prepare('DELETE FROM readings WHERE taken_at < ?').run(horizonMs);
            }
            if (newest && step.scanAfter) newest.scanOlderSlice();
            if (newest) check();
          });
          newest ??= new NewestReading(database.sqlite, { sliceRows });
          while (newest.scanOlderSlice());
          expect(newest.scannedToWatermark()).toBe(true);
          check();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('after an upgrade or a restore with a raw backlog, the catch-up scans for the newest readings before it folds', async () => {
    // 121 rows in slices of 20, nothing folded; LDR stopped reporting at the start, DHT11 reports to the end.
    for (let i = 0; i < 60; i++) insertRaw('DHT11', T0 + i * 1000);
    insertRaw('LDR', T0 + 500);
    for (let i = 60; i < 120; i++) insertRaw('DHT11', T0 + i * 1000);
    const newest = new NewestReading(database.sqlite, { sliceRows: 20 });
    expect(newest.find(G, 'DHT11')?.taken_at).toBe(T0 + 119_000);
    expect(newest.find(G, 'LDR')).toBeUndefined();
    expect(newest.scannedToWatermark()).toBe(false);

    const writer = new RollupWriter(database.sqlite);
    // Whether the scan had reached the watermark as each fold began.
    const scannedAtFold: boolean[] = [];
    const foldPending = writer.foldPending.bind(writer);
    writer.foldPending = (maxRows?: number) => {
      scannedAtFold.push(newest.scannedToWatermark());
      return foldPending(maxRows);
    };
    const catchUp = new RollupCatchUp({ writer, newest });
    // A backlog above what a tick folds by itself starts it.
    for (let i = 0; i < 2_000; i++) insertRaw('SOIL_MOISTURE', T0 + 200_000 + i);
    catchUp.start();
    await catchUp.whenCurrent();
    await catchUp.stop();
    expect(scannedAtFold.length).toBeGreaterThan(0);
    expect(scannedAtFold.every(Boolean)).toBe(true);
    expect(newest.find(G, 'LDR')?.taken_at).toBe(T0 + 500);
    expect(newest.find(G, 'SOIL_MOISTURE')?.taken_at).toBe(T0 + 200_000 + 1_999);
  });
});

