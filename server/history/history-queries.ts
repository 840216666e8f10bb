import type Database from 'better-sqlite3';
import type { SensorType } from '../contract/reading.ts';
import { planHistory, usableResolutions, type Interval } from './history-plan.ts';
import { FIELD_COLUMNS, HOUR_MS, type FieldColumn } from './rollup-levels.ts';

/** What the aggregated rows are grouped by. */
export type Grouping =
  /** sensor type and time bucket of `bucketMs` (historical charts) */
  | { by: 'bucket'; bucketMs: number }
  /** sensor type over the whole range (stats) */
  | { by: 'sensor' }
  /** hour since the epoch, all sensor types together (hourly analytics) */
  | { by: 'epochHour' };

export interface FieldAggregate {
  n: number;
  sum: number;
  min: number | null;
  max: number | null;
}

export interface AggregateRow {
  /** Absent when grouped by epoch hour. */
  sensorType?: SensorType;
  /** The bucket's start (bucket grouping) or the hour's start (epoch-hour grouping), epoch ms. */
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

const partColumns = FIELD_COLUMNS.flatMap((c) => [`${c}_n`, `${c}_sum`, `${c}_min`, `${c}_max`]);
// A raw row as a bucket of one (aliased: a compound SELECT takes its column names from its first member).
const rawAsPart = FIELD_COLUMNS.flatMap((c) => [`(${c} IS NOT NULL) AS ${c}_n`, `coalesce(${c}, 0) AS ${c}_sum`, `${c} AS ${c}_min`, `${c} AS ${c}_max`]);
const mergedParts = FIELD_COLUMNS.flatMap((c) => [`sum(${c}_n) AS ${c}_n`, `total(${c}_sum) AS ${c}_sum`, `min(${c}_min) AS ${c}_min`, `max(${c}_max) AS ${c}_max`]);

/**
 * Aggregates readings over any range from the rollups (the coarsest level whose buckets fit the
 * grouping, finer levels and raw rows only at the edges, see planHistory), so the cost follows the
 * number of buckets read, not of rows stored: a week costs about what an hour costs. With no
 * resolutions (`rollups: false`) it reads raw rows only: the baseline the benches compare against.
 */
export class HistoryQueries {
  readonly #statements = new Map<string, Database.Statement>();

  constructor(
    private readonly sqlite: Database.Database,
    private readonly options: { rollups: boolean } = { rollups: true },
  ) {}

  aggregate(query: AggregateQuery): AggregateRow[] {
    const bucketMs = query.grouping.by === 'bucket' ? query.grouping.bucketMs : query.grouping.by === 'epochHour' ? HOUR_MS : null;
    const resolutions = this.options.rollups ? usableResolutions(bucketMs) : [];
    const plan = planHistory(query.fromMs, query.untilMs, resolutions);
    const filter = query.sensorType ? [query.greenhouseId, query.sensorType] : [query.greenhouseId];
    const params: unknown[] = [];
    const push = (interval: Interval) => params.push(interval[0], Math.max(interval[0], interval[1]), ...filter);
    for (const level of plan.rollups) level.intervals.forEach(push);
    plan.raw.forEach(push);
    const statement = this.#statement(query.grouping, plan.rollups.map((l) => l.resolutionMs), query.sensorType !== undefined);
    return (statement.all(...params) as Array<Record<string, number | string | null>>).map(toAggregateRow);
  }

  #statement(grouping: Grouping, resolutions: number[], bySensorType: boolean): Database.Statement {
    const key = `${JSON.stringify(grouping)}|${resolutions.join(',')}|${bySensorType}`;
    let statement = this.#statements.get(key);
    if (!statement) {
      statement = this.sqlite.prepare(aggregateSql(grouping, resolutions, bySensorType));
      this.#statements.set(key, statement);
    }
    return statement;
  }
}

function aggregateSql(grouping: Grouping, resolutions: number[], bySensorType: boolean): string {
  const filter = `greenhouse_id = ?${bySensorType ? ' AND sensor_type = ?' : ''}`;
  const rollupPart = (resolutionMs: number) =>
    `SELECT sensor_type, bucket_at AS at, n, ${partColumns.join(', ')} FROM reading_rollups
     WHERE resolution_ms = ${resolutionMs} AND bucket_at >= ? AND bucket_at < ? AND ${filter}`;
  const rawPart = `SELECT sensor_type, taken_at AS at, 1 AS n, ${rawAsPart.join(', ')} FROM readings
     WHERE taken_at >= ? AND taken_at < ? AND ${filter}`;
  // Two ranges per source (one per edge; one is empty when nothing is there), in plan order.
  const parts = [...resolutions.flatMap((r) => [rollupPart(r), rollupPart(r)]), rawPart, rawPart];
  const union = parts.join('\nUNION ALL\n');
  const merged = `sum(n) AS n, ${mergedParts.join(', ')}`;
  switch (grouping.by) {
    case 'bucket': {
      // Integer division (both sides integers) floors to the bucket's start.
      const bucket = `(CAST(at AS INTEGER) / ${grouping.bucketMs}) * ${grouping.bucketMs}`;
      return `SELECT sensor_type, ${bucket} AS at_ms, ${merged} FROM (${union}) GROUP BY sensor_type, at_ms ORDER BY at_ms, sensor_type`;
    }
    case 'sensor':
      return `SELECT sensor_type, ${merged} FROM (${union}) GROUP BY sensor_type ORDER BY sensor_type`;
    case 'epochHour':
      return `SELECT (CAST(at AS INTEGER) / ${HOUR_MS}) * ${HOUR_MS} AS at_ms, ${merged} FROM (${union}) GROUP BY at_ms ORDER BY at_ms`;
  }
}

function toAggregateRow(row: Record<string, number | string | null>): AggregateRow {
  const fields = {} as Record<FieldColumn, FieldAggregate>;
  for (const c of FIELD_COLUMNS) {
    fields[c] = {
      n: Number(row[`${c}_n`] ?? 0),
      sum: Number(row[`${c}_sum`] ?? 0),
      min: row[`${c}_min`] as number | null,
      max: row[`${c}_max`] as number | null,
    };
  }
  const out: AggregateRow = { n: Number(row.n), fields };
  if (typeof row.sensor_type === 'string') out.sensorType = row.sensor_type as SensorType;
  if (row.at_ms !== undefined && row.at_ms !== null) out.atMs = Number(row.at_ms);
  return out;
}

/** The mean of a field over an aggregate, null when it has no value. */
export const meanOf = (field: FieldAggregate): number | null => (field.n > 0 ? field.sum / field.n : null);
