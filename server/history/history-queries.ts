import type Database from 'better-sqlite3';
import type { SensorType } from '../contract/reading.ts';
import { planHistory, usableResolutions } from './history-plan.ts';
import { FIELD_COLUMNS, type FieldColumn } from './rollup-levels.ts';
import { QUANTITIES, ZONE_QUANTITIES } from '../../common/catalogue.ts';

/** What the aggregated rows are grouped by. */
export type Grouping =
  /** sensor type and time bucket of `bucketMs` (historical charts) */
  | { by: 'bucket'; bucketMs: number }
  /** sensor type over the whole range (stats) */
  | { by: 'sensor' }
  /** time bucket of `bucketMs` since the epoch, all sensor types together (hourly analytics) */
  | { by: 'time'; bucketMs: number };

export interface FieldAggregate {
  n: number;
  sum: number;
  min: number | null;
  max: number | null;
}

export interface AggregateRow {
  /** Absent when grouped by time across sensors. */
  sensorType?: SensorType;
  /** The bucket's start (bucket and time groupings), epoch ms. */
  atMs?: number;
  /** Readings rows summarised. */
  n: number;
  fields: Record<FieldColumn, FieldAggregate>;
}

export interface AggregateQuery {
  greenhouseId: string;
  fromMs: number;
  /** Exclusive; OPEN_END_MS for no upper bound. */
  untilMs: number;
  grouping: Grouping;
  sensorType?: SensorType;
}

/** What ReadingsRepo aggregates history with: HistoryQueries over the rollups in the gateway. */
export interface HistoryAggregator {
  aggregate(query: AggregateQuery): AggregateRow[];
}

const FIELD_COUNT = FIELD_COLUMNS.length;

/** A group being accumulated: rows, then n, sum, min, max per field (flat, in FIELD_COLUMNS order). */
interface Accumulator {
  sensorType: SensorType | undefined;
  atMs: number | undefined;
  n: number;
  values: Array<number | null>;
}

/**
 * Aggregates readings over any range from the rollups (the coarsest level whose buckets fit the
 * grouping, finer levels and raw rows only at the edges, see planHistory), so the cost follows the
 * number of buckets read, not of rows stored: a week costs about what an hour costs. SQL only reads
 * index ranges; the few thousand rows they return are merged here, which is several times cheaper
 * than twenty SQL aggregates per raw row.
 */
export class HistoryQueries implements HistoryAggregator {
  readonly #statements = new Map<string, Database.Statement>();

  constructor(private readonly sqlite: Database.Database) {}

  aggregate(query: AggregateQuery): AggregateRow[] {
    const { grouping } = query;
    const bucketMs = grouping.by === 'sensor' ? null : grouping.bucketMs;
    const resolutions = usableResolutions(bucketMs);
    const plan = planHistory(query.fromMs, query.untilMs, resolutions);
    const filter = query.sensorType ? [query.greenhouseId, query.sensorType] : [query.greenhouseId];
    const bySensor = grouping.by !== 'time';
    const groups = new Map<string, Accumulator>();
    // Rows arrive in time order, each sensor's in runs of the same bucket: remember each sensor's last
    // group so most rows skip building a key and a map lookup.
    const lastBySensor = new Map<SensorType, Accumulator>();
    const groupOf = (sensorType: SensorType, atMs: number): Accumulator => {
      const last = lastBySensor.get(sensorType);
      if (last && last.atMs === atMs) return last;
      const group = findGroup(sensorType, atMs);
      lastBySensor.set(sensorType, group);
      return group;
    };
    const findGroup = (sensorType: SensorType, atMs: number): Accumulator => {
      const key = bucketMs === null ? sensorType : bySensor ? `${sensorType}|${atMs}` : String(atMs);
      let group = groups.get(key);
      if (!group) {
        group = { sensorType: bySensor ? sensorType : undefined, atMs: bucketMs === null ? undefined : atMs, n: 0, values: emptyValues() };
        groups.set(key, group);
      }
      return group;
    };
    const floor = (ms: number) => (bucketMs === null ? 0 : Math.floor(ms / bucketMs) * bucketMs);

    if (plan.rollups.length > 0) {
      // The rollup levels are merged per group in SQL: only one row per group crosses into JS.
      const resolutions = plan.rollups.map((l) => l.resolutionMs);
      const statement = this.#statement(`rollups|${grouping.by}|${bucketMs}|${resolutions.join(',')}|${query.sensorType ?? ''}`, () =>
        rollupsSql(grouping.by, bucketMs, resolutions, query.sensorType),
      );
      const params = plan.rollups.flatMap((l) => l.intervals.flatMap(([fromMs, toMs]) => [fromMs, Math.max(fromMs, toMs), ...filter]));
      // Row by row (iterate, not all): each row is garbage as soon as it is merged, and a young
      // generation kept small (server/appliance/v8-footprint.ts) never copies a whole answer's rows.
      const fields = columnsRead(query.sensorType).map((c) => FIELD_COLUMNS.indexOf(c));
      for (const row of statement.iterate(...params) as IterableIterator<unknown[]>) {
        const group = groupOf(row[0] as SensorType, row[1] as number);
        group.n += row[2] as number;
        mergeBucket(group.values, row, 3, fields);
      }
    }
    const raw = this.#statement(`raw|${filter.length}`, () =>
      `SELECT sensor_type, taken_at, ${FIELD_COLUMNS.join(', ')} FROM readings
       WHERE taken_at >= ? AND taken_at < ? AND ${filterSql(filter.length)}`,
    );
    for (const [fromMs, toMs] of plan.raw) {
      if (fromMs >= toMs) continue;
      for (const row of raw.iterate(fromMs, toMs, ...filter) as IterableIterator<unknown[]>) {
        const group = groupOf(row[0] as SensorType, floor(row[1] as number));
        group.n += 1;
        mergeRaw(group.values, row, 2);
      }
    }
    return [...groups.values()].sort(byTimeThenSensor).map(toAggregateRow);
  }

  #statement(key: string, sql: () => string): Database.Statement {
    let statement = this.#statements.get(key);
    if (!statement) {
      statement = this.sqlite.prepare(sql()).raw();
      this.#statements.set(key, statement);
    }
    return statement;
  }
}

/**
 * The rollup buckets of the plan (two ranges per level, coarsest first), merged per group: sensor type
 * and bucket start (`bucketMs`), sensor type (none), or bucket start across sensors.
 *
 * For one sensor type only the columns of the quantities its zone carries are read and merged (each
 * quantity belongs to exactly one zone, common/catalogue.ts; the others are empty in its rows and come
 * back as empty aggregates): the air zone has four of the eight, the light zone one. The merge of a
 * week's 5-minute buckets is SQLite's work on every value it reads, about 45 ms of the event loop at
 * full speed for all eight (docs/performance.md, "A week's history, a slice at a time").
 */
function rollupsSql(by: Grouping['by'], bucketMs: number | null, resolutions: number[], sensorType: SensorType | undefined): string {
  const key = bucketMs === null ? '0' : `(bucket_at / ${bucketMs}) * ${bucketMs}`;
  const sensor = by === 'time' ? `''` : 'sensor_type';
  const read = columnsRead(sensorType);
  const readColumns = read.flatMap((c) => [`${c}_n`, `${c}_sum`, `${c}_min`, `${c}_max`]).join(', ');
  const branch = (resolutionMs: number) =>
    `SELECT ${sensor} AS sensor_type, ${key} AS at, n, ${readColumns} FROM reading_rollups
     WHERE resolution_ms = ${resolutionMs} AND bucket_at >= ? AND bucket_at < ? AND ${filterSql(sensorType === undefined ? 1 : 2)}`;
  const union = resolutions.flatMap((r) => [branch(r), branch(r)]).join('\nUNION ALL\n');
  const merged = read.flatMap((c) => [`sum(${c}_n)`, `total(${c}_sum)`, `min(${c}_min)`, `max(${c}_max)`]).join(', ');
  return `SELECT sensor_type, at, sum(n), ${merged} FROM (${union}) GROUP BY sensor_type, at`;
}

/** The field columns a query reads: those of the sensor type's zone, or all of them. */
function columnsRead(sensorType: SensorType | undefined): readonly FieldColumn[] {
  return sensorType === undefined ? FIELD_COLUMNS : FIELD_COLUMNS.filter((c) => ZONE_COLUMNS[sensorType].has(c));
}

/** The rollup columns each zone's rows can hold a value in. */
const ZONE_COLUMNS = Object.fromEntries(
  Object.entries(ZONE_QUANTITIES).map(([zone, quantities]) => [zone, new Set<string>(quantities.map((q) => QUANTITIES[q].column))]),
) as unknown as Record<SensorType, ReadonlySet<string>>;

const filterSql = (params: number) => (params === 2 ? 'greenhouse_id = ? AND sensor_type = ?' : 'greenhouse_id = ?');

const emptyValues = (): Array<number | null> => {
  const values: Array<number | null> = [];
  for (let i = 0; i < FIELD_COUNT; i++) values.push(0, 0, null, null);
  return values;
};

const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const higher = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Adds a rollup bucket's n, sum, min, max of each field read (the row holds them from `offset` on, in
 * the order of `fields`, indexes into FIELD_COLUMNS).
 */
function mergeBucket(values: Array<number | null>, row: unknown[], offset: number, fields: readonly number[]): void {
  for (let k = 0; k < fields.length; k++) {
    const at = offset + k * 4;
    const n = row[at] as number;
    if (n === 0 || n === null) continue;
    const i = fields[k]! * 4;
    values[i] = (values[i] as number) + n;
    values[i + 1] = (values[i + 1] as number) + (row[at + 1] as number);
    values[i + 2] = lower(values[i + 2]!, row[at + 2] as number | null);
    values[i + 3] = higher(values[i + 3]!, row[at + 3] as number | null);
  }
}

/** Adds one raw row's field values (starting at `offset` in its row). */
function mergeRaw(values: Array<number | null>, row: unknown[], offset: number): void {
  for (let f = 0; f < FIELD_COUNT; f++) {
    const value = row[offset + f] as number | null;
    if (value === null) continue;
    const i = f * 4;
    values[i] = (values[i] as number) + 1;
    values[i + 1] = (values[i + 1] as number) + value;
    values[i + 2] = lower(values[i + 2]!, value);
    values[i + 3] = higher(values[i + 3]!, value);
  }
}

function byTimeThenSensor(a: Accumulator, b: Accumulator): number {
  const time = (a.atMs ?? 0) - (b.atMs ?? 0);
  if (time !== 0) return time;
  return (a.sensorType ?? '') < (b.sensorType ?? '') ? -1 : (a.sensorType ?? '') > (b.sensorType ?? '') ? 1 : 0;
}

/** The aggregate of a field with no value in a group: one frozen object for all of them. */
const NO_VALUES: FieldAggregate = Object.freeze({ n: 0, sum: 0, min: null, max: null });

/**
 * A week's history is thousands of groups of eight fields each, most of them empty for the zone read:
 * plain index reads and one shared empty aggregate, since every object made here is garbage for the
 * young generation to collect, on the event loop (docs/performance.md, "Last Week's answer in pieces").
 */
function toAggregateRow(group: Accumulator): AggregateRow {
  const fields = {} as Record<FieldColumn, FieldAggregate>;
  const { values } = group;
  for (let f = 0; f < FIELD_COUNT; f++) {
    const n = values[f * 4] as number;
    fields[FIELD_COLUMNS[f]!] = n === 0 ? NO_VALUES : { n, sum: values[f * 4 + 1] as number, min: values[f * 4 + 2] ?? null, max: values[f * 4 + 3] ?? null };
  }
  const out: AggregateRow = { n: group.n, fields };
  if (group.sensorType !== undefined) out.sensorType = group.sensorType;
  if (group.atMs !== undefined) out.atMs = group.atMs;
  return out;
}

/** The mean of a field over an aggregate, null when it has no value. */
export const meanOf = (field: FieldAggregate): number | null => (field.n > 0 ? field.sum / field.n : null);
