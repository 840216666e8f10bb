import type Database from 'better-sqlite3';
import type { SensorType } from '../contract/reading.ts';

/** A time a sensor was declared faulted (its SENSOR_FAULT/SENSOR_STUCK alert), open-ended while still active. */
export interface FaultInterval {
  sensorType: SensorType;
  fromMs: number;
  toMs: number | null;
}

/**
 * The sensor-fault alerts that overlap a window, read from the alerts table for readers outside this
 * feature (the rule preview's worker, server/devices/rules/). Works on any connection.
 */
export class FaultIntervals {
  readonly #overlapping: Database.Statement;

  constructor(
    sqlite: Database.Database,
    private readonly greenhouseId: string,
  ) {
    this.#overlapping = sqlite.prepare(
      `SELECT device_id, created_at, resolved_at FROM alerts
       WHERE greenhouse_id = :greenhouseId AND alert_type IN ('SENSOR_FAULT', 'SENSOR_STUCK')
         AND created_at <= :toMs AND (resolved_at IS NULL OR resolved_at >= :fromMs)
       ORDER BY created_at`,
    );
  }

  between(fromMs: number, toMs: number): FaultInterval[] {
    const rows = this.#overlapping.all({ greenhouseId: this.greenhouseId, fromMs, toMs }) as Array<{ device_id: string; created_at: number; resolved_at: number | null }>;
    return rows.map((r) => ({ sensorType: r.device_id as SensorType, fromMs: r.created_at, toMs: r.resolved_at }));
  }
}
