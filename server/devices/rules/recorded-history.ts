import type Database from 'better-sqlite3';
import { FaultIntervals, type FaultInterval } from '../../alerts/fault-intervals.ts';
import type { DeviceStatus } from '../../contract/device.ts';
import type { SensorType } from '../../contract/reading.ts';
import { RecordedReadings, type RecordedReading } from '../../sensors/recorded-readings.ts';

export type { FaultInterval, RecordedReading };

export interface RecordedState {
  status: DeviceStatus;
  /** When the device last changed state before the window, or null. */
  sinceMs: number | null;
}

/**
 * What happened, for the rule preview: the raw readings and the fault alerts through the queries their
 * features own (server/sensors/recorded-readings.ts, server/alerts/fault-intervals.ts), and the
 * device's state from this feature's control log. Built on the preview worker's own read-only
 * connection (preview-worker.ts); a week at the default 5 s interval is ~120,000 DHT11 rows, read in pages.
 */
export class RecordedHistory {
  readonly #readings: RecordedReadings;
  readonly #faults: FaultIntervals;
  readonly #stateAt: Database.Statement;
  readonly #lastSwitch: Database.Statement;

  /** `step` is called once per reading read: a worker's pacer (server/db/worker-pacing.ts). */
  constructor(
    sqlite: Database.Database,
    greenhouseId: string,
    private readonly step: () => void = () => undefined,
  ) {
    this.#readings = new RecordedReadings(sqlite, greenhouseId);
    this.#faults = new FaultIntervals(sqlite, greenhouseId);
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
   * Calls `visit` with each reading in [fromMs, untilMs), in time order; a long window is read as a series
   * of short ones. Each row comes in the same object, refilled for the next (RecordedReadings.forEachBetween).
   */
  forEachReadingBetween(types: readonly SensorType[], fromMs: number, untilMs: number, visit: (reading: Readonly<RecordedReading>) => void): void {
    this.#readings.forEachBetween(types, fromMs, untilMs, visit, this.step);
  }

  faults(fromMs: number, toMs: number): FaultInterval[] {
    return this.#faults.between(fromMs, toMs);
  }

  /** The device's recorded state at `atMs`, or null when the log has nothing before it. */
  stateAt(deviceId: string, atMs: number): RecordedState | null {
    const status = this.#stateAt.get(deviceId, atMs) as DeviceStatus | undefined;
    if (status === undefined) return null;
    return { status, sinceMs: (this.#lastSwitch.get(deviceId, atMs) as number | undefined) ?? null };
  }
}
