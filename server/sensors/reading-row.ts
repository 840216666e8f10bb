import { QUANTITIES, QUANTITY_KEYS, ZONE_MAIN_QUANTITY, type QuantityColumn, type QuantityField } from '../../common/catalogue.ts';
import { toIso } from '../db/open.ts';
import type { Reading, SensorType } from '../contract/reading.ts';
import { climateMetrics } from './climate-metrics.ts';
import type { NewReading } from './readings-repo.ts';

/** A `readings` row as better-sqlite3 returns it (snake_case columns; one per quantity of the catalogue). */
export type ReadingRow = {
  id: number | string;
  greenhouse_id: string;
  sensor_type: SensorType;
  taken_at: number;
  vpd_uncertainty_kpa?: number | null;
} & Partial<Record<QuantityColumn, number | null>>;

/** The wire name of each field column. */
export const FIELD_OF_COLUMN = Object.fromEntries(QUANTITY_KEYS.map((q) => [QUANTITIES[q].column, QUANTITIES[q].field])) as Record<QuantityColumn, QuantityField>;

/** The main value's column and unit per zone (DHT11's main value is its temperature). */
export const MAIN_FIELD = Object.fromEntries(
  Object.entries(ZONE_MAIN_QUANTITY).map(([zone, q]) => [zone, { column: QUANTITIES[q].column, unit: QUANTITIES[q].unit }]),
) as Record<SensorType, { column: QuantityColumn; unit: string }>;

/** A tick's zone values as the row they are stored as (every catalogue column, null where absent). */
export function rowOfNewReading(id: number | string, greenhouseId: string, r: NewReading): ReadingRow {
  const row: ReadingRow = { id, greenhouse_id: greenhouseId, sensor_type: r.sensorType, taken_at: r.takenAtMs, vpd_uncertainty_kpa: r.vpdUncertaintyKpa ?? null };
  for (const q of QUANTITY_KEYS) row[QUANTITIES[q].column] = r[q] ?? null;
  return row;
}

/**
 * A reading as the wire sees it without a row of its own yet (held for the next batch commit) or at all
 * (held back while the clock is behind): its `_id` is `<sensorType>-<takenAt ms>`; ids are opaque to clients.
 */
export function unstoredReading(greenhouseId: string, r: NewReading): Reading {
  return readingFromRow(rowOfNewReading(`${r.sensorType}-${r.takenAtMs}`, greenhouseId, r));
}

/** Row to wire reading: a field the zone does not carry is absent, not null (docs/sensors.md, zones). */
export function readingFromRow(row: ReadingRow): Reading {
  const reading: Reading = {
    _id: String(row.id),
    greenhouseId: row.greenhouse_id,
    sensorType: row.sensor_type,
    timestamp: toIso(row.taken_at),
  };
  for (const q of QUANTITY_KEYS) {
    const value = row[QUANTITIES[q].column];
    if (typeof value === 'number') reading[QUANTITIES[q].field] = value;
  }
  if (row.sensor_type === 'DHT11') {
    Object.assign(reading, climateMetrics(row.temperature_c, row.humidity_pct));
    if (typeof row.vpd_uncertainty_kpa === 'number' && reading.vpdKpa !== undefined) reading.vpdUncertaintyKpa = row.vpd_uncertainty_kpa;
  }
  const main = MAIN_FIELD[row.sensor_type];
  const value = row[main.column];
  if (typeof value === 'number') reading.value = value;
  reading.unit = main.unit;
  return reading;
}
