import type Database from 'better-sqlite3';
import type { HourlyBucket, Reading, SensorStats, SensorType } from '../contract/reading.ts';
import { SENSOR_TYPES } from '../contract/reading.ts';
import { readingFromRow, type ReadingRow } from './reading-row.ts';

/** One sensor's values from one tick, stamped with the clock at read time. */
export interface NewReading {
  sensorType: SensorType;
  takenAtMs: number;
  temperatureC?: number | null;
  humidityPct?: number | null;
  lightLux?: number | null;
  soilMoisturePct?: number | null;
  waterLevelCm?: number | null;
}

const HOUR_MS = 3_600_000;

/**
 * Width of the time buckets the history is averaged into, per range of the dashboard. Each range gives at
 * most ~1,000 points per series (168 h / 10 min = 1,008), whatever the sampling interval, so a phone can
 * draw a week without choking. At the default 5 s interval the 1 h range is effectively raw data.
 */
export const HISTORY_BUCKET_MS: Record<number, number> = {
  1: 5_000,
  6: 30_000,
  24: 120_000,
  72: 300_000,
  168: 600_000,
};

/** Any other range (never from the routes, which allow only the five): ~1,000 buckets, at least 1 s. */
export function bucketMsFor(hours: number): number {
  return HISTORY_BUCKET_MS[hours] ?? Math.max(1000, Math.ceil((hours * HOUR_MS) / 1000 / 1000) * 1000);
}

const round = (value: number | null, digits: number) =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The `readings` table, with hand-prepared statements: the sampler writes every few seconds and the
 * history queries aggregate in SQL, so both stay on better-sqlite3's fast path instead of the ORM.
 */
export class ReadingsRepo {
  readonly #insert: Database.Statement;
  readonly #insertTick: (greenhouseId: string, rows: readonly NewReading[]) => number[];
  readonly #latest: Database.Statement;
  readonly #lastTakenAt: Database.Statement;
  readonly #history: Database.Statement;
  readonly #historyOfType: Database.Statement;
  readonly #stats: Database.Statement;
  readonly #hourly: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    this.#insert = sqlite.prepare(
      `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // One transaction per tick: one fsync instead of four, and a tick is stored whole or not at all.
    this.#insertTick = sqlite.transaction((greenhouseId: string, rows: readonly NewReading[]) =>
      rows.map((r) =>
        Number(
          this.#insert.run(
            greenhouseId,
            r.sensorType,
            r.takenAtMs,
            r.temperatureC ?? null,
            r.humidityPct ?? null,
            r.lightLux ?? null,
            r.soilMoisturePct ?? null,
            r.waterLevelCm ?? null,
          ).lastInsertRowid,
        ),
      ),
    );
    this.#latest = sqlite.prepare(
      `SELECT * FROM readings WHERE sensor_type = ? AND greenhouse_id = ? ORDER BY taken_at DESC, id DESC LIMIT 1`,
    );
    this.#lastTakenAt = sqlite.prepare(
      `SELECT max(taken_at) AS taken_at FROM readings WHERE sensor_type = ? AND greenhouse_id = ?`,
    );
    // Downsampling: average each field over fixed time buckets (integer division: a bound JS number
    // arrives as REAL, hence the CAST). A bucket without rows yields no row,
    // so a gap in the data stays a gap (the client sees the missing bucket timestamps).
    const historySql = (filter: string) =>
      `SELECT (taken_at / CAST(:bucketMs AS INTEGER)) * CAST(:bucketMs AS INTEGER) AS bucket_at, sensor_type, count(*) AS n,
              avg(temperature_c) AS temperature_c, avg(humidity_pct) AS humidity_pct, avg(light_lux) AS light_lux,
              avg(soil_moisture_pct) AS soil_moisture_pct, avg(water_level_cm) AS water_level_cm
       FROM readings
       WHERE greenhouse_id = :greenhouseId AND taken_at >= :sinceMs AND taken_at <= :untilMs ${filter}
       GROUP BY sensor_type, bucket_at
       ORDER BY bucket_at, sensor_type`;
    this.#history = sqlite.prepare(historySql(''));
    this.#historyOfType = sqlite.prepare(historySql('AND sensor_type = :sensorType'));
    this.#stats = sqlite.prepare(
      `SELECT sensor_type, count(*) AS n, avg(temperature_c) AS t, avg(humidity_pct) AS h, avg(light_lux) AS l,
              avg(soil_moisture_pct) AS s, avg(water_level_cm) AS w
       FROM readings WHERE greenhouse_id = ? AND taken_at >= ? GROUP BY sensor_type ORDER BY sensor_type`,
    );
    // Grouped by hour since the epoch with integer division only (cheap), then folded into hour of day
    // in JS: strftime(..., 'localtime') per row cost seconds on a week of 1 Hz data and blocked the sampler.
    this.#hourly = sqlite.prepare(
      `SELECT taken_at / 3600000 AS epoch_hour, count(*) AS n,
              sum(temperature_c) AS t_sum, count(temperature_c) AS t_n, sum(humidity_pct) AS h_sum, count(humidity_pct) AS h_n,
              sum(light_lux) AS l_sum, count(light_lux) AS l_n, sum(soil_moisture_pct) AS s_sum, count(soil_moisture_pct) AS s_n
       FROM readings WHERE greenhouse_id = ? AND taken_at >= ? GROUP BY epoch_hour`,
    );
  }

  /** Stores one tick's readings in ONE transaction; returns them as the wire sees them. */
  insertTick(greenhouseId: string, rows: readonly NewReading[]): Reading[] {
    if (rows.length === 0) return [];
    const ids = this.#insertTick(greenhouseId, rows);
    return rows.map((r, i) =>
      readingFromRow({
        id: ids[i]!,
        greenhouse_id: greenhouseId,
        sensor_type: r.sensorType,
        taken_at: r.takenAtMs,
        temperature_c: r.temperatureC ?? null,
        humidity_pct: r.humidityPct ?? null,
        light_lux: r.lightLux ?? null,
        soil_moisture_pct: r.soilMoisturePct ?? null,
        water_level_cm: r.waterLevelCm ?? null,
      }),
    );
  }

  /** The newest reading of each sensor type that has one. */
  latest(greenhouseId: string): Reading[] {
    const out: Reading[] = [];
    for (const type of SENSOR_TYPES) {
      const row = this.#latest.get(type, greenhouseId) as ReadingRow | undefined;
      if (row) out.push(readingFromRow(row));
    }
    return out;
  }

  lastTakenAtMs(greenhouseId: string, sensorType: SensorType): number | null {
    const row = this.#lastTakenAt.get(sensorType, greenhouseId) as { taken_at: number | null };
    return row.taken_at;
  }

  /**
   * Readings of the last `hours`, time-ordered, averaged into buckets of `bucketMsFor(hours)`; each point
   * carries `bucketMs` and its timestamp is the bucket's start, so the chart can tell gaps from data.
   */
  historical(greenhouseId: string, hours: number, nowMs: number, sensorType?: SensorType): Reading[] {
    const bucketMs = bucketMsFor(hours);
    const params = { greenhouseId, bucketMs, sinceMs: nowMs - hours * HOUR_MS, untilMs: nowMs };
    const found = sensorType ? this.#historyOfType.all({ ...params, sensorType }) : this.#history.all(params);
    const rows = found as Array<ReadingRow & { bucket_at: number; n: number }>;
    return rows.map((row) => ({
      ...readingFromRow({ ...row, id: `${row.sensor_type}-${row.bucket_at}`, greenhouse_id: greenhouseId, taken_at: row.bucket_at }),
      bucketMs,
    }));
  }

  stats(greenhouseId: string, hours: number, nowMs: number): SensorStats[] {
    const rows = this.#stats.all(greenhouseId, nowMs - hours * HOUR_MS) as Array<StatsRow & { sensor_type: SensorType; w: number | null }>;
    return rows.map((r) => ({
      _id: r.sensor_type,
      count: r.n,
      avgTemperature: round(r.t, 2),
      avgHumidity: round(r.h, 2),
      avgLightIntensity: round(r.l, 2),
      avgSoilMoisture: round(r.s, 2),
      avgWaterLevel: round(r.w, 2),
    }));
  }

  /**
   * Per hour of day, 0-23, every hour present (count 0 when no readings). Hour of day is in the
   * gateway's LOCAL time zone (the Pi's /etc/localtime), DST-correct per hour: an operator reads
   * "14:00" as the afternoon in their greenhouse, not UTC.
   */
  hourly(greenhouseId: string, hours: number, nowMs: number): HourlyBucket[] {
    const rows = this.#hourly.all(greenhouseId, nowMs - hours * HOUR_MS) as HourlySumsRow[];
    const byHour = Array.from({ length: 24 }, () => ({ n: 0, t: [0, 0], h: [0, 0], l: [0, 0], s: [0, 0] }));
    for (const row of rows) {
      const bucket = byHour[new Date(row.epoch_hour * HOUR_MS).getHours()]!;
      bucket.n += row.n;
      for (const [key, sum, count] of [['t', row.t_sum, row.t_n], ['h', row.h_sum, row.h_n], ['l', row.l_sum, row.l_n], ['s', row.s_sum, row.s_n]] as const) {
        bucket[key][0]! += sum ?? 0;
        bucket[key][1]! += count;
      }
    }
    const mean = ([sum, count]: number[]) => (count ? sum! / count : null);
    return byHour.map((b, hour) => ({
      hour,
      count: b.n,
      // Spec section 9: temperature, humidity and soil to 1 decimal, light to 0.
      avgTemperature: round(mean(b.t), 1),
      avgHumidity: round(mean(b.h), 1),
      avgLightIntensity: round(mean(b.l), 0),
      avgSoilMoisture: round(mean(b.s), 1),
    }));
  }
}

interface HourlySumsRow {
  epoch_hour: number;
  n: number;
  t_sum: number | null;
  t_n: number;
  h_sum: number | null;
  h_n: number;
  l_sum: number | null;
  l_n: number;
  s_sum: number | null;
  s_n: number;
}

interface StatsRow {
  n: number;
  t: number | null;
  h: number | null;
  l: number | null;
  s: number | null;
}
