// History aggregated from raw readings rows only, no rollups: the oracle the rollup tests compare
// ReadingsRepo's answers against (`new ReadingsRepo(sqlite, { history: new RawScanHistory(sqlite) })`).
// Deliberately the plainest form: one scan, grouped in JS, no plan, no levels, no merging.
import type Database from 'better-sqlite3';
import type { SensorType } from '../../server/contract/reading.ts';
import type { AggregateQuery, AggregateRow, FieldAggregate, HistoryAggregator } from '../../server/history/history-queries.ts';
import { FIELD_COLUMNS, type FieldColumn } from '../../server/history/rollup-levels.ts';

export class RawScanHistory implements HistoryAggregator {
  constructor(private readonly sqlite: Database.Database) {}

  aggregate(query: AggregateQuery): AggregateRow[] {
    const { grouping } = query;
    const bucketMs = grouping.by === 'sensor' ? null : grouping.bucketMs;
    const bySensor = grouping.by !== 'time';
    const rows = this.sqlite
      .prepare(
        `SELECT sensor_type, taken_at, ${FIELD_COLUMNS.join(', ')} FROM readings
         WHERE taken_at >= ? AND taken_at < ? AND greenhouse_id = ?${query.sensorType ? ' AND sensor_type = ?' : ''}`,
      )
      .all(query.fromMs, query.untilMs, query.greenhouseId, ...(query.sensorType ? [query.sensorType] : [])) as Array<Record<string, number | string | null>>;
    const groups = new Map<string, AggregateRow>();
    for (const row of rows) {
      const sensorType = row.sensor_type as SensorType;
      const atMs = bucketMs === null ? undefined : Math.floor((row.taken_at as number) / bucketMs) * bucketMs;
      const key = `${bySensor ? sensorType : ''}|${atMs ?? ''}`;
      let group = groups.get(key);
      if (!group) {
        const fields = Object.fromEntries(FIELD_COLUMNS.map((c) => [c, { n: 0, sum: 0, min: null, max: null }])) as Record<FieldColumn, FieldAggregate>;
        group = { n: 0, fields, ...(bySensor ? { sensorType } : {}), ...(atMs === undefined ? {} : { atMs }) };
        groups.set(key, group);
      }
      group.n += 1;
      for (const column of FIELD_COLUMNS) {
        const value = row[column] as number | null;
        if (value === null) continue;
        const field = group.fields[column];
        field.n += 1;
        field.sum += value;
        field.min = field.min === null ? value : Math.min(field.min, value);
        field.max = field.max === null ? value : Math.max(field.max, value);
      }
    }
    return [...groups.values()].sort((a, b) => (a.atMs ?? 0) - (b.atMs ?? 0) || (a.sensorType ?? '').localeCompare(b.sensorType ?? ''));
  }
}
