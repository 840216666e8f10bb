import type Database from 'better-sqlite3';
import { SENSOR_TYPES, type SensorType } from '../contract/reading.ts';

/** One stored reading, every column, as a replay of the rules needs it. */
export interface RecordedReading {
  sensorType: SensorType;
  takenAtMs: number;
  temperatureC: number | null;
  humidityPct: number | null;
  lightLux: number | null;
  soilMoisturePct: number | null;
  waterLevelCm: number | null;
}

/** `CASE sensor_type WHEN 'DHT11' THEN 0 ...`: the type's index in SENSOR_TYPES (the catalogue's names, never input). */
const TYPE_INDEX = `CASE sensor_type ${SENSOR_TYPES.map((type, index) => `WHEN '${type}' THEN ${index}`).join(' ')} END`;

/**
 * A row as the query gives it: the sensor type as its index in SENSOR_TYPES and the read time as the ms
 * since the window's start. Both are then small integers, which V8 holds without allocating: a week at
 * 1 Hz is 600,000 rows, and a string for the type and a heap number for an epoch time in each were an
 * eighth of what a preview worker allocated (docs/performance.md, "What a preview's rows cost").
 */
type Row = [typeIndex: number, sinceFromMs: number, number | null, number | null, number | null, number | null, number | null];

/**
 * The raw readings of a time window, in time order: the readings table's query for readers outside
 * this feature (the rule preview's worker, server/devices/rules/). Raw rows, so a replay sees exactly
 * the values the live engine saw. Works on any connection, a worker's read-only one included.
 */
export class RecordedReadings {
  readonly #between: Database.Statement;

  constructor(
    sqlite: Database.Database,
    private readonly greenhouseId: string,
  ) {
    this.#between = sqlite
      .prepare(
        `SELECT ${TYPE_INDEX}, taken_at - :fromMs, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm
         FROM readings WHERE greenhouse_id = :greenhouseId AND taken_at >= :fromMs AND taken_at < :untilMs
           AND sensor_type IN (SELECT value FROM json_each(:types))
         ORDER BY taken_at, id`,
      )
      .raw(true);
  }

  /**
   * Calls `visit` with each reading of these sensors in [fromMs, untilMs), in time order (the taken_at
   * index gives the order: no sort). `step` is called once per row: a worker's pacer
   * (server/db/worker-pacing.ts).
   *
   * Every row comes in the same object, refilled for the next, and by a call rather than a generator: a
   * week at 1 Hz is 600,000 rows, an object per row was a quarter of what a preview worker allocated and
   * a generator's result per row another tenth, each scavenge of its young generation a pause that a Pi
   * core's quota pays for (docs/performance.md). Copy what must outlive the call.
   */
  forEachBetween(
    types: readonly SensorType[],
    fromMs: number,
    untilMs: number,
    visit: (reading: Readonly<RecordedReading>) => void,
    step: () => void = () => undefined,
  ): void {
    const rows = this.#between.iterate({ greenhouseId: this.greenhouseId, fromMs, untilMs, types: JSON.stringify(types) }) as IterableIterator<Row>;
    const reading: RecordedReading = { sensorType: 'DHT11', takenAtMs: 0, temperatureC: null, humidityPct: null, lightLux: null, soilMoisturePct: null, waterLevelCm: null };
    for (const row of rows) {
      step();
      reading.sensorType = SENSOR_TYPES[row[0]]!;
      reading.takenAtMs = fromMs + row[1];
      reading.temperatureC = row[2];
      reading.humidityPct = row[3];
      reading.lightLux = row[4];
      reading.soilMoisturePct = row[5];
      reading.waterLevelCm = row[6];
      visit(reading);
    }
  }
}
