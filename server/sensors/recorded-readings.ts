import type Database from 'better-sqlite3';
import type { SensorType } from '../contract/reading.ts';

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

type Row = [SensorType, number, number | null, number | null, number | null, number | null, number | null];

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
        `SELECT sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm
         FROM readings WHERE greenhouse_id = :greenhouseId AND taken_at >= :fromMs AND taken_at < :untilMs
           AND sensor_type IN (SELECT value FROM json_each(:types))
         ORDER BY taken_at, id`,
      )
      .raw(true);
  }

  /**
   * The readings of these sensors in [fromMs, untilMs), streamed in time order (the taken_at index gives
   * the order: no sort). `step` is called once per row: a worker's pacer (server/db/worker-pacing.ts).
   *
   * Every row is yielded in the same object, refilled for the next: a week at 1 Hz is 600,000 rows, and an
   * object per row was a quarter of what a preview worker allocated, each scavenge of its young generation
   * a pause that a Pi core's quota pays for (docs/performance.md). Copy what must outlive the step.
   */
  *between(types: readonly SensorType[], fromMs: number, untilMs: number, step: () => void = () => undefined): Generator<Readonly<RecordedReading>> {
    const rows = this.#between.iterate({ greenhouseId: this.greenhouseId, fromMs, untilMs, types: JSON.stringify(types) }) as IterableIterator<Row>;
    const reading: RecordedReading = { sensorType: 'DHT11', takenAtMs: 0, temperatureC: null, humidityPct: null, lightLux: null, soilMoisturePct: null, waterLevelCm: null };
    for (const row of rows) {
      step();
      reading.sensorType = row[0];
      reading.takenAtMs = row[1];
      reading.temperatureC = row[2];
      reading.humidityPct = row[3];
      reading.lightLux = row[4];
      reading.soilMoisturePct = row[5];
      reading.waterLevelCm = row[6];
      yield reading;
    }
  }
}
