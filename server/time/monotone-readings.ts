import type { SensorType } from '../contract/reading.ts';
import type { NewReading, ReadingsRepo } from '../sensors/readings-repo.ts';

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
 * value to the dashboard and the rules; storage resumes once the clock passes the newest stored
 * reading (docs/hardware.md, "Time without a clock").
 */
export class MonotoneReadings {
  readonly #options: MonotoneReadingsOptions;
  readonly #newestMs = new Map<SensorType, number | null>();
  readonly #heldBack = new Set<SensorType>();

  constructor(options: MonotoneReadingsOptions) {
    this.#options = options;
  }

  insertTick(greenhouseId: string, rows: readonly NewReading[]): ReturnType<ReadingsRepo['insertTick']> {
    const kept = rows.filter((row) => this.#inOrder(row));
    const stored = this.#options.repo.insertTick(greenhouseId, kept);
    for (const row of kept) this.#newestMs.set(row.sensorType, Math.max(row.takenAtMs, this.#newest(row.sensorType) ?? row.takenAtMs));
    return stored;
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
