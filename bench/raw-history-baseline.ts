// The history queries as they were before rollups (every call scans raw rows), kept only as the
// benches' "before": same SQL, same mapping, so the ratios compare against what shipped.
import type Database from 'better-sqlite3';
import type { HourlyBucket, Reading, SensorStats, SensorType } from '../server/contract/reading.ts';
import { readingFromRow, type ReadingRow } from '../server/sensors/reading-row.ts';
import { bucketMsFor } from '../server/sensors/readings-repo.ts';

const HOUR_MS = 3_600_000;
const round = (value: number | null, digits: number) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

export class RawHistoryBaseline {
  readonly #history: Database.Statement;
  readonly #stats: Database.Statement;
  readonly #hourly: Database.Statement;

  constructor(sqlite: Database.Database) {
    this.#history = sqlite.prepare(
      `SELECT (taken_at / CAST(:bucketMs AS INTEGER)) * CAST(:bucketMs AS INTEGER) AS bucket_at, sensor_type, count(*) AS n,
              avg(temperature_c) AS temperature_c, avg(humidity_pct) AS humidity_pct, avg(light_lux) AS light_lux,
              avg(soil_moisture_pct) AS soil_moisture_pct, avg(water_level_cm) AS water_level_cm
       FROM readings
       WHERE greenhouse_id = :greenhouseId AND taken_at >= :sinceMs AND taken_at <= :untilMs
       GROUP BY sensor_type, bucket_at
       ORDER BY bucket_at, sensor_type`,
    );
    this.#stats = sqlite.prepare(
      `SELECT sensor_type, count(*) AS n, avg(temperature_c) AS t, avg(humidity_pct) AS h, avg(light_lux) AS l,
              avg(soil_moisture_pct) AS s, avg(water_level_cm) AS w
       FROM readings WHERE greenhouse_id = ? AND taken_at >= ? GROUP BY sensor_type ORDER BY sensor_type`,
    );
    this.#hourly = sqlite.prepare(
      `SELECT taken_at / 3600000 AS epoch_hour, count(*) AS n,
              sum(temperature_c) AS t_sum, count(temperature_c) AS t_n, sum(humidity_pct) AS h_sum, count(humidity_pct) AS h_n,
              sum(light_lux) AS l_sum, count(light_lux) AS l_n, sum(soil_moisture_pct) AS s_sum, count(soil_moisture_pct) AS s_n
       FROM readings WHERE greenhouse_id = ? AND taken_at >= ? GROUP BY epoch_hour`,
    );
  }

  historical(greenhouseId: string, hours: number, nowMs: number): Reading[] {
    const bucketMs = bucketMsFor(hours);
    const rows = this.#history.all({ greenhouseId, bucketMs, sinceMs: nowMs - hours * HOUR_MS, untilMs: nowMs }) as Array<ReadingRow & { bucket_at: number }>;
    return rows.map((row) => ({ ...readingFromRow({ ...row, id: `${row.sensor_type}-${row.bucket_at}`, greenhouse_id: greenhouseId, taken_at: row.bucket_at }), bucketMs }));
  }

  stats(greenhouseId: string, hours: number, nowMs: number): SensorStats[] {
    const rows = this.#stats.all(greenhouseId, nowMs - hours * HOUR_MS) as Array<{ sensor_type: SensorType; n: number; t: number | null; h: number | null; l: number | null; s: number | null; w: number | null }>;
    return rows.map((r) => ({ _id: r.sensor_type, count: r.n, avgTemperature: round(r.t, 2), avgHumidity: round(r.h, 2), avgLightIntensity: round(r.l, 2), avgSoilMoisture: round(r.s, 2), avgWaterLevel: round(r.w, 2) }));
  }

  hourly(greenhouseId: string, hours: number, nowMs: number): HourlyBucket[] {
    const rows = this.#hourly.all(greenhouseId, nowMs - hours * HOUR_MS) as Array<Record<string, number | null>>;
    const byHour = Array.from({ length: 24 }, () => ({ n: 0, sums: [0, 0, 0, 0], counts: [0, 0, 0, 0] }));
    for (const row of rows) {
      const bucket = byHour[new Date(row.epoch_hour! * HOUR_MS).getHours()]!;
      bucket.n += row.n!;
      ['t', 'h', 'l', 's'].forEach((k, i) => {
        bucket.sums[i]! += row[`${k}_sum`] ?? 0;
        bucket.counts[i]! += row[`${k}_n`] ?? 0;
      });
    }
    const mean = (b: (typeof byHour)[number], i: number) => (b.counts[i] ? b.sums[i]! / b.counts[i]! : null);
    return byHour.map((b, hour) => ({ hour, count: b.n, avgTemperature: round(mean(b, 0), 1), avgHumidity: round(mean(b, 1), 1), avgLightIntensity: round(mean(b, 2), 0), avgSoilMoisture: round(mean(b, 3), 1) }));
  }
}
