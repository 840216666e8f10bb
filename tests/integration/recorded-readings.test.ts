// The raw readings a rule preview replays (server/sensors/recorded-readings.ts), on a real SQLite file
// with the real migrations: the window, the sensors asked for and this greenhouse only, in time order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open.ts';
import { RecordedReadings, type RecordedReading } from '../../server/sensors/recorded-readings.ts';

const dir = mkdtempSync(join(tmpdir(), 'recorded-readings-'));
const database = openDatabase(dir);
afterAll(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = Date.UTC(2026, 5, 8, 12);
const insert = database.sqlite.prepare(
  `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux) VALUES (?, ?, ?, ?, ?, ?)`,
);
// Inserted out of time order: the index gives the order.
insert.run('greenhouse-001', 'DHT11', T0 + 2_000, 21.5, 60, null);
insert.run('greenhouse-001', 'DHT11', T0, 20.5, 62, null);
insert.run('greenhouse-001', 'LDR', T0 + 1_000, null, null, 900);
insert.run('greenhouse-002', 'DHT11', T0 + 1_000, 30, 40, null);
insert.run('greenhouse-001', 'DHT11', T0 + 5_000, 22, 58, null);

describe('recorded readings', () => {
  it('streams the asked sensors of this greenhouse in the window, in time order, one object refilled for each row', () => {
    const recorded = new RecordedReadings(database.sqlite, 'greenhouse-001');
    const rows: RecordedReading[] = [];
    const objects = new Set<object>();
    let steps = 0;
    recorded.forEachBetween(
      ['DHT11', 'LDR'],
      T0,
      T0 + 5_000,
      (row) => {
        rows.push({ ...row });
        objects.add(row);
      },
      () => steps++,
    );
    expect(rows).toEqual([
      { sensorType: 'DHT11', takenAtMs: T0, temperatureC: 20.5, humidityPct: 62, lightLux: null, soilMoisturePct: null, waterLevelCm: null },
      { sensorType: 'LDR', takenAtMs: T0 + 1_000, temperatureC: null, humidityPct: null, lightLux: 900, soilMoisturePct: null, waterLevelCm: null },
      { sensorType: 'DHT11', takenAtMs: T0 + 2_000, temperatureC: 21.5, humidityPct: 60, lightLux: null, soilMoisturePct: null, waterLevelCm: null },
    ]);
    expect(steps).toBe(3);
    // Copy what must outlive the call: every row comes in the same object.
    expect(objects.size).toBe(1);
    const times: number[] = [];
    recorded.forEachBetween(['LDR'], T0, T0 + 10_000, (row) => times.push(row.takenAtMs));
    expect(times).toEqual([T0 + 1_000]);
  });
});
