import { toIso } from '../db/open.ts';
import type { Reading, SensorField, SensorType } from '../contract/reading.ts';
import { climateMetrics } from './climate-metrics.ts';

/** A `readings` row as better-sqlite3 returns it (snake_case columns). */
export interface ReadingRow {
  id: number | string;
  greenhouse_id: string;
  sensor_type: SensorType;
  taken_at: number;
  temperature_c: number | null;
  humidity_pct: number | null;
  light_lux: number | null;
  soil_moisture_pct: number | null;
  water_level_cm: number | null;
}

/** The wire name of each field column. */
export const FIELD_OF_COLUMN = {
  temperature_c: 'temperature',
  humidity_pct: 'humidity',
  light_lux: 'lightIntensity',
  soil_moisture_pct: 'soilMoisture',
  water_level_cm: 'waterLevel',
} as const satisfies Record<string, SensorField>;

/** The main value and unit per sensor type (DHT11's main value is its temperature). */
const MAIN_FIELD: Record<SensorType, { column: keyof ReadingRow; unit: string }> = {
  DHT11: { column: 'temperature_c', unit: '°C' },
  LDR: { column: 'light_lux', unit: 'lux' },
  SOIL_MOISTURE: { column: 'soil_moisture_pct', unit: '%' },
  WATER_LEVEL: { column: 'water_level_cm', unit: 'cm' },
};

/** Row to wire reading: a field the sensor does not measure is absent, not null (spec section 3). */
export function readingFromRow(row: ReadingRow): Reading {
  const reading: Reading = {
    _id: String(row.id),
    greenhouseId: row.greenhouse_id,
    sensorType: row.sensor_type,
    timestamp: toIso(row.taken_at),
  };
  if (row.temperature_c !== null) reading.temperature = row.temperature_c;
  if (row.humidity_pct !== null) reading.humidity = row.humidity_pct;
  if (row.sensor_type === 'DHT11') Object.assign(reading, climateMetrics(row.temperature_c, row.humidity_pct));
  if (row.light_lux !== null) reading.lightIntensity = row.light_lux;
  if (row.soil_moisture_pct !== null) reading.soilMoisture = row.soil_moisture_pct;
  if (row.water_level_cm !== null) reading.waterLevel = row.water_level_cm;
  const main = MAIN_FIELD[row.sensor_type];
  const value = row[main.column];
  if (typeof value === 'number') reading.value = value;
  reading.unit = main.unit;
  return reading;
}
