import type Database from 'better-sqlite3';
import type { DeviceStatus } from '../../contract/device.ts';
import type { SensorType } from '../../contract/reading.ts';

/** One stored reading, as the replay needs it. */
export interface RecordedReading {
  sensorType: SensorType;
  takenAtMs: number;
  temperatureC: number | null;
  humidityPct: number | null;
  lightLux: number | null;
  soilMoisturePct: number | null;
  waterLevelCm: number | null;
}

/** A time a sensor was declared faulted (its SENSOR_FAULT/SENSOR_STUCK alert), open-ended while still active. */
export interface FaultInterval {
  sensorType: SensorType;
  fromMs: number;
  toMs: number | null;
}

export interface RecordedState {
  status: DeviceStatus;
  /** When the device last changed state before the window, or null. */
  sinceMs: number | null;
}

/**
 * What happened, read from the tables the gateway already keeps: the raw readings, the fault alerts and
 * the control log. Raw rows, so the replay sees exactly the values the live engine saw (one sampling
 * interval apart); a week at the default 5 s interval is ~120,000 DHT11 rows, read in pages.
 * When the rollup tables (issue 13) exist, a long preview could run over 1-minute rollups instead: this
 * is the seam.
 */
export class RecordedHistory {
  readonly #readings: Database.Statement;
  readonly #faults: Database.Statement;
  readonly #stateAt: Database.Statement;
  readonly #lastSwitch: Database.Statement;

  constructor(
    sqlite: Database.Database,
    private readonly greenhouseId: string,
  ) {
    this.#readings = sqlite
      .prepare(
        `SELECT sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm
         FROM readings WHERE greenhouse_id = :greenhouseId AND taken_at >= :fromMs AND taken_at < :untilMs
           AND sensor_type IN (SELECT value FROM json_each(:types))
         ORDER BY taken_at, id`,
      )
      .raw(true);
    this.#faults = sqlite
      .prepare(
        `SELECT device_id, created_at, resolved_at FROM alerts
         WHERE greenhouse_id = :greenhouseId AND alert_type IN ('SENSOR_FAULT', 'SENSOR_STUCK')
           AND created_at <= :toMs AND (resolved_at IS NULL OR resolved_at >= :fromMs)
         ORDER BY created_at`,
      );
    this.#stateAt = sqlite
      .prepare(`SELECT new_status FROM control_log WHERE device_id = ? AND created_at <= ? ORDER BY created_at DESC, id DESC LIMIT 1`)
      .pluck();
    this.#lastSwitch = sqlite
      .prepare(
        `SELECT created_at FROM control_log WHERE device_id = ? AND created_at <= ? AND previous_status <> new_status
         ORDER BY created_at DESC, id DESC LIMIT 1`,
      )
      .pluck();
  }

  /**
   * The readings in [fromMs, untilMs), in time order. The preview reads a long window as a series of
   * short ones (a page each), never holding a statement open: one iterating across an await would keep
   * the connection busy for the sampler. A short window also keeps the sort of several sensor types small.
   */
  readingsBetween(types: readonly SensorType[], fromMs: number, untilMs: number): RecordedReading[] {
    const params = { greenhouseId: this.greenhouseId, fromMs, untilMs, types: JSON.stringify(types) };
    const raw = this.#readings.all(params) as Array<[SensorType, number, number | null, number | null, number | null, number | null, number | null]>;
    return raw.map(([sensorType, takenAtMs, temperatureC, humidityPct, lightLux, soilMoisturePct, waterLevelCm]) => ({
      sensorType,
      takenAtMs,
      temperatureC,
      humidityPct,
      lightLux,
      soilMoisturePct,
      waterLevelCm,
    }));
  }

  faults(fromMs: number, toMs: number): FaultInterval[] {
    const rows = this.#faults.all({ greenhouseId: this.greenhouseId, fromMs, toMs }) as Array<{ device_id: string; created_at: number; resolved_at: number | null }>;
    return rows.map((r) => ({ sensorType: r.device_id as SensorType, fromMs: r.created_at, toMs: r.resolved_at }));
  }

  /** The device's recorded state at `atMs`, or null when the log has nothing before it. */
  stateAt(deviceId: string, atMs: number): RecordedState | null {
    const status = this.#stateAt.get(deviceId, atMs) as DeviceStatus | undefined;
    if (status === undefined) return null;
    return { status, sinceMs: (this.#lastSwitch.get(deviceId, atMs) as number | undefined) ?? null };
  }
}
