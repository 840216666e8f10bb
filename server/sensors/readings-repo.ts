import type Database from 'better-sqlite3';
import type { FieldValues, HourlyBucket, Reading, SensorStats, SensorType } from '../contract/reading.ts';
import { SENSOR_TYPES } from '../contract/reading.ts';
import { OPEN_END_MS, usableResolutions } from '../history/history-plan.ts';
import { HistoryQueries, meanOf, type AggregateQuery, type AggregateRow, type HistoryAggregator } from '../history/history-queries.ts';
import { INLINE_FOLD_MAX_ROWS } from '../history/rollup-catch-up.ts';
import { FIELD_COLUMNS, HOUR_MS, type FieldColumn } from '../history/rollup-levels.ts';
import { RollupWriter } from '../history/rollup-writer.ts';
import { climateMetrics } from './climate-metrics.ts';
import { addTimeBucketRows, emptyHourOfDaySums, hourBucketMs, hourlyBuckets, roundOrNull, type HourOfDaySums } from './hour-of-day.ts';
import { NewestReading } from './newest-reading.ts';
import { FIELD_OF_COLUMN, MAIN_FIELD, readingFromRow, rowOfNewReading } from './reading-row.ts';
import { QUANTITY_KEYS, type QuantityKey } from '../../common/catalogue.ts';

/** One zone's values from one tick (the median of its sensors), stamped with the clock at read time. */
export type NewReading = {
  sensorType: SensorType;
  takenAtMs: number;
  /** Air zone: ±kPa of its VPD from the accuracy of the sensors used. */
  vpdUncertaintyKpa?: number | null;
} & Partial<Record<QuantityKey, number | null>>;

const INSERT_COLUMNS = ['greenhouse_id', 'sensor_type', 'taken_at', ...FIELD_COLUMNS, 'vpd_uncertainty_kpa'];

/**
 * Width of the time buckets the history is averaged into, per range of the dashboard. Each range gives at
 * most ~1,000 points per series (168 h / 10 min = 1,008), whatever the sampling interval, so a phone can
 * draw a week without choking. At the default 5 s interval the 1 h range is effectively raw data. From
 * 24 h on, each width is a whole number of rollup buckets (1 min, 5 min, 1 h), so the range is read
 * from the rollups.
 */
export const HISTORY_BUCKET_MS: Record<number, number> = {
  1: 5_000,
  6: 30_000,
  24: 120_000,
  72: 300_000,
  168: 600_000,
  720: 3_600_000,
  8760: 12 * 3_600_000,
};

/** What `historical` reads for a range of `hours` ending now: [fromMs, untilMs) in buckets of bucketMs. */
export function historicalRange(hours: number, nowMs: number): { fromMs: number; untilMs: number; bucketMs: number } {
  return { fromMs: nowMs - hours * HOUR_MS, untilMs: nowMs + 1, bucketMs: bucketMsFor(hours) };
}

/** Stored rows (rollup buckets, or raw rows below a minute) one slice of a history reads per zone. */
export const ROWS_PER_HISTORY_SLICE = 400;

/**
 * [fromMs, untilMs) cut into slices that each read about `rowsPerSlice` stored rows per zone, at bucket
 * starts: every bucket (and so every point) lies in exactly one slice, and the slices' points are the
 * range's. With the default, Last Week (10-minute buckets from 5-minute rollups) is 6 slices, Last
 * Year 23.
 */
export function historicalSlices(fromMs: number, untilMs: number, bucketMs: number, rowsPerSlice = ROWS_PER_HISTORY_SLICE): Array<[fromMs: number, untilMs: number]> {
  const coarsest = Math.max(0, ...usableResolutions(bucketMs));
  // Below a minute the raw rows are read: about one per bucket at the default interval.
  const rowsPerBucket = coarsest > 0 ? bucketMs / coarsest : 1;
  const bucketsPerSlice = Math.max(1, Math.floor(rowsPerSlice / rowsPerBucket));
  const slices: Array<[number, number]> = [];
  let start = fromMs;
  while (start < untilMs) {
    const end = Math.min(untilMs, (Math.floor(start / bucketMs) + bucketsPerSlice) * bucketMs);
    slices.push([start, end]);
    start = end;
  }
  return slices;
}

/** Any other range (never from the routes, which allow only HISTORY_RANGES_HOURS): ~1,000 buckets, at least 1 s. */
export function bucketMsFor(hours: number): number {
  return HISTORY_BUCKET_MS[hours] ?? Math.max(1000, Math.ceil((hours * HOUR_MS) / 1000 / 1000) * 1000);
}

export interface ReadingsRepoOptions {
  /**
   * Where history, stats and hourly are aggregated from (default: HistoryQueries over the rollups,
   * docs/storage.md). Any other aggregator answers from the same tables with the same meaning.
   */
  history?: HistoryAggregator;
  /** Told when a tick finds more unfolded rows than it folds by itself (start a catch-up). */
  onRollupBacklog?: () => void;
  /** The one rollup writer of the database, shared with the catch-up (default: its own). */
  rollupWriter?: RollupWriter;
  /** The newest reading of each sensor, shared with the catch-up that scans its unfolded rows (default: its own). */
  newest?: NewestReading;
  /**
   * Fold each tick into the rollups in its own transaction (the default). Off, the caller folds
   * (`foldRollups`) when it chooses: the sampler's batches do it every few minutes (batched-ticks.ts).
   */
  foldOnInsert?: boolean;
}

/**
 * The `readings` table and its rollups, with hand-prepared statements: the sampler writes every few
 * seconds and history is aggregated in SQL, so both stay on better-sqlite3's fast path.
 */
export class ReadingsRepo {
  readonly #insert: Database.Statement;
  readonly #insertTick: (greenhouseId: string, rows: readonly NewReading[]) => number[];
  readonly #newest: NewestReading;
  readonly #rollups: RollupWriter;
  readonly #queries: HistoryAggregator;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly options: ReadingsRepoOptions = {},
  ) {
    this.#rollups = options.rollupWriter ?? new RollupWriter(sqlite);
    this.#queries = options.history ?? new HistoryQueries(sqlite);
    this.#insert = sqlite.prepare(`INSERT INTO readings (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`);
    // One transaction per tick, rollups included: one fsync, and a tick is stored whole or not at all.
    this.#insertTick = sqlite.transaction((greenhouseId: string, rows: readonly NewReading[]) => {
      const backlogRows = this.#rollups.pendingRows();
      const ids = rows.map((r) =>
        Number(
          this.#insert.run(greenhouseId, r.sensorType, r.takenAtMs, ...QUANTITY_KEYS.map((q) => r[q] ?? null), r.vpdUncertaintyKpa ?? null).lastInsertRowid,
        ),
      );
      if (this.options.foldOnInsert !== false && backlogRows <= INLINE_FOLD_MAX_ROWS) this.#rollups.foldPending();
      return ids;
    });
    this.#newest = options.newest ?? new NewestReading(sqlite);
  }

  /** Stores one tick's readings in ONE transaction (their rollups too); returns them as the wire sees them. */
  insertTick(greenhouseId: string, rows: readonly NewReading[]): Reading[] {
    if (rows.length === 0) return [];
    const ids = this.#insertTick(greenhouseId, rows);
    // Behind by more than a tick folds: the rows are stored, the catch-up folds them in slices.
    if (this.#rollups.pendingRows() > INLINE_FOLD_MAX_ROWS) this.options.onRollupBacklog?.();
    return rows.map((r, i) => readingFromRow(rowOfNewReading(ids[i]!, greenhouseId, r)));
  }

  /** Rows not yet in the rollups (0 when they are current). */
  pendingRollupRows(): number {
    return this.#rollups.pendingRows();
  }

  /** Folds up to `maxRows` of the rollup backlog now; returns what is left. */
  foldRollups(maxRows?: number): number {
    return this.#rollups.foldPending(maxRows);
  }

  /** The newest reading of each sensor type that has one. */
  latest(greenhouseId: string): Reading[] {
    const out: Reading[] = [];
    for (const type of SENSOR_TYPES) {
      const row = this.#newest.find(greenhouseId, type);
      if (row) out.push(readingFromRow(row));
    }
    return out;
  }

  lastTakenAtMs(greenhouseId: string, sensorType: SensorType): number | null {
    const row = this.#newest.find(greenhouseId, sensorType);
    return row ? Number(row.taken_at) : null;
  }

  /**
   * Readings of the last `hours`, time-ordered, averaged into buckets of `bucketMsFor(hours)`; each point
   * carries `bucketMs`, its timestamp is the bucket's start (a missing bucket is a gap in the data, never
   * bridged) and `min`/`max` of each field within the bucket.
   */
  historical(greenhouseId: string, hours: number, nowMs: number, sensorType?: SensorType): Reading[] {
    const { fromMs, untilMs, bucketMs } = historicalRange(hours, nowMs);
    return this.historicalSlice(greenhouseId, fromMs, untilMs, bucketMs, sensorType);
  }

  /**
   * The points of `historical` whose buckets start in [fromMs, untilMs): a slice of a longer range cut at
   * whole buckets (historicalSlices), so that a long history can be read a piece at a time.
   */
  historicalSlice(greenhouseId: string, fromMs: number, untilMs: number, bucketMs: number, sensorType?: SensorType): Reading[] {
    const rows = this.#aggregate({ greenhouseId, sensorType, fromMs, untilMs, grouping: { by: 'bucket', bucketMs } });
    return rows.map((row) => historicalPoint(greenhouseId, row, bucketMs));
  }

  /** Per sensor type (one zone's only with `sensorType`), sorted by sensor type. */
  stats(greenhouseId: string, hours: number, nowMs: number, sensorType?: SensorType): SensorStats[] {
    const rows = this.#aggregate({ greenhouseId, sensorType, fromMs: nowMs - hours * HOUR_MS, untilMs: OPEN_END_MS, grouping: { by: 'sensor' } });
    const avg = (row: AggregateRow, column: FieldColumn) => roundOrNull(meanOf(row.fields[column]), 2);
    return rows.map((r) => ({
      _id: r.sensorType!,
      count: r.n,
      avgTemperature: avg(r, 'temperature_c'),
      avgHumidity: avg(r, 'humidity_pct'),
      avgLightIntensity: avg(r, 'light_lux'),
      avgSoilMoisture: avg(r, 'soil_moisture_pct'),
      avgWaterLevel: avg(r, 'water_level_cm'),
    }));
  }

  /**
   * Per hour of day, 0-23, every hour present (count 0 when no readings), in the gateway's local time
   * zone (hour-of-day.ts). Aggregated per hour since the epoch (hourly rollups; quarter hours where the
   * local hours do not start on UTC hours), then folded.
   */
  hourly(greenhouseId: string, hours: number, nowMs: number): HourlyBucket[] {
    return hourlyBuckets(this.hourOfDaySums(greenhouseId, hours, nowMs));
  }

  /** The sums behind `hourly`, of one zone with `sensorType`: the zones' sums add up to all of them. */
  hourOfDaySums(greenhouseId: string, hours: number, nowMs: number, sensorType?: SensorType): HourOfDaySums {
    const fromMs = nowMs - hours * HOUR_MS;
    const rows = this.#aggregate({ greenhouseId, sensorType, fromMs, untilMs: OPEN_END_MS, grouping: { by: 'time', bucketMs: hourBucketMs(fromMs, nowMs) } });
    return addTimeBucketRows(emptyHourOfDaySums(), rows);
  }

  /** The LDR's mean lux per bucket of `bucketMs` in [fromMs, untilMs) (the daily light integral). */
  lightBuckets(greenhouseId: string, fromMs: number, untilMs: number, bucketMs: number): Array<{ atMs: number; meanLux: number }> {
    const rows = this.#aggregate({ greenhouseId, sensorType: 'LDR', fromMs, untilMs, grouping: { by: 'bucket', bucketMs } });
    return rows.flatMap((row) => {
      const meanLux = meanOf(row.fields.light_lux);
      return meanLux === null ? [] : [{ atMs: row.atMs!, meanLux }];
    });
  }

  #aggregate(query: AggregateQuery): AggregateRow[] {
    // Whatever is not folded yet is folded first (the routes wait for a large backlog's catch-up
    // before they get here, so this is at most a few ticks' rows).
    this.#rollups.foldPending();
    return this.#queries.aggregate(query);
  }
}

/** Main value and unit per zone, as readingFromRow gives them (built here directly: a week is
 * thousands of points, and this runs on the event loop). */
const MAIN = MAIN_FIELD;

function historicalPoint(greenhouseId: string, row: AggregateRow, bucketMs: number): Reading {
  const sensorType = row.sensorType!;
  const reading: Reading = {
    _id: `${sensorType}-${row.atMs}`,
    greenhouseId,
    sensorType,
    timestamp: new Date(row.atMs!).toISOString(),
  };
  let min: FieldValues | undefined;
  let max: FieldValues | undefined;
  // An index loop: this runs for each of a week's thousands of points, often before V8 has optimised
  // it, and an unoptimised for-of makes an iterator result per field.
  for (let f = 0; f < FIELD_COLUMNS.length; f++) {
    const column = FIELD_COLUMNS[f]!;
    const field = row.fields[column];
    if (field.n === 0) continue;
    const name = FIELD_OF_COLUMN[column];
    reading[name] = field.sum / field.n;
    if (field.min !== null && field.max !== null) {
      (min ??= {})[name] = field.min;
      (max ??= {})[name] = field.max;
    }
  }
  // VPD and dew point of the bucket's mean temperature and humidity, as every DHT11 reading carries them.
  if (sensorType === 'DHT11') Object.assign(reading, climateMetrics(reading.temperature, reading.humidity));
  const main = MAIN[sensorType];
  const mainField = row.fields[main.column];
  if (mainField.n > 0) reading.value = mainField.sum / mainField.n;
  reading.unit = main.unit;
  reading.bucketMs = bucketMs;
  if (min && max) {
    reading.min = min;
    reading.max = max;
  }
  return reading;
}
