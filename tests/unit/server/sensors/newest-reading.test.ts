import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SENSOR_TYPES, type SensorType } from '../../../../server/contract/reading.ts';
import { openDatabase, type OpenedDatabase } from '../../../../server/db/open.ts';
import { RollupWriter } from '../../../../server/history/rollup-writer.ts';
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
});
