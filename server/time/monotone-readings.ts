import type { Reading, SensorType } from '../contract/reading.ts';
import type { NewReading, ReadingsRepo } from '../sensors/readings-repo.ts';
import { unstoredReading } from '../sensors/reading-row.ts';

export interface MonotoneReadingsOptions {
  repo: Pick<ReadingsRepo, 'insertTick' | 'lastTakenAtMs'>;
  greenhouseId: string;
  /** Told once per step back, with how far behind the newest stored reading the clock is. */
  onHeldBack?: (sensorType: SensorType, behindMs: number) => void;
}

/**
 * The readings table only ever moves forward in time, per sensor: a reading stamped at or before the
 * newest stored one of its sensor is not stored. That is what a wall clock stepped back looks like (a
 * Pi without a real-time clock booting on 1970 or on an old saved time, a manual change): storing it
 * would pour today's values into the past of the history and its rollups. The sampler still hands the
 * value to the dashboard and the rules (`insertTick` answers every row, a held-back one as an unstored
 * reading); storage resumes once the clock passes the newest stored reading (docs/hardware.md, "Time
 * without a clock").
 */
export class MonotoneReadings {
  readonly #options: MonotoneReadingsOptions;
  readonly #newestMs = new Map<SensorType, number | null>();
  readonly #heldBack = new Set<SensorType>();
  /** The newest value read of each sensor held back now, for the Now screen's first load. */
  readonly #heldBackReadings = new Map<SensorType, Reading>();

  constructor(options: MonotoneReadingsOptions) {
    this.#options = options;
  }

  /** Stores the rows in order; answers every row as the wire sees it, in the order given. */
  insertTick(greenhouseId: string, rows: readonly NewReading[]): ReturnType<ReadingsRepo['insertTick']> {
    const inOrder = rows.map((row) => this.#inOrder(row));
    const kept = rows.filter((_, i) => inOrder[i]);
    const stored = this.#options.repo.insertTick(greenhouseId, kept);
    for (const row of kept) this.#newestMs.set(row.sensorType, Math.max(row.takenAtMs, this.#newest(row.sensorType) ?? row.takenAtMs));
    for (const row of kept) this.#heldBackReadings.delete(row.sensorType);
    if (kept.length === rows.length) return stored;
    let next = 0;
    return rows.map((row, i) => {
      if (inOrder[i]) return stored[next++]!;
      const reading = unstoredReading(greenhouseId, row);
      this.#heldBackReadings.set(row.sensorType, reading);
      return reading;
    });
  }

  /**
   * The newest reading of each sensor, `stored` (the store's answer) with what is held back put in its
   * place: while the clock is behind, the value read now, not the one stored before the step.
   */
  latest(stored: readonly Reading[]): Reading[] {
    if (this.#heldBackReadings.size === 0) return [...stored];
    const bySensor = new Map(stored.map((reading) => [reading.sensorType, reading]));
    for (const [sensorType, reading] of this.#heldBackReadings) bySensor.set(sensorType, reading);
    return [...bySensor.values()];
  }

  #inOrder(row: NewReading): boolean {
    const newest = this.#newest(row.sensorType);
    if (newest === null || row.takenAtMs > newest) {
      this.#heldBack.delete(row.sensorType);
      return true;
    }
    if (!this.#heldBack.has(row.sensorType)) {
      this.#heldBack.add(row.sensorType);
      this.#options.onHeldBack?.(row.sensorType, newest - row.takenAtMs);
    }
    return false;
  }

  #newest(sensorType: SensorType): number | null {
    if (!this.#newestMs.has(sensorType)) this.#newestMs.set(sensorType, this.#options.repo.lastTakenAtMs(this.#options.greenhouseId, sensorType));
    return this.#newestMs.get(sensorType) ?? null;
  }
}
