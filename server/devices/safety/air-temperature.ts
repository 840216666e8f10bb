import { SENSOR_FIELDS, STALE_AFTER_MS, type SensorSnapshot, type SensorType } from '../../contract/reading.ts';

/** The air temperature as safety may use it: fresh, or lost and why. */
export type AirTemperature = { fresh: true; temperatureC: number } | { fresh: false; why: string };

/**
 * What safety knows of the air temperature: the newest reading from the sampler's snapshots and whether
 * the sensor that measures it is declared faulted. A heater never runs on a stale or faulted reading
 * (server/devices/README.md), and the cut-off acts only on a fresh one.
 */
export class AirTemperatureWatch {
  #last: { temperatureC: number; readAtMs: number } | null = null;
  readonly #faulted = new Set<SensorType>();

  onSnapshot(snapshot: SensorSnapshot): void {
    const temperatureC = snapshot.values.temperature;
    const readAtMs = snapshot.readAtMs.temperature;
    if (temperatureC !== null && readAtMs !== null) this.#last = { temperatureC, readAtMs };
  }

  /** A sensor health event; answers true when it concerns the air temperature. */
  onSensorHealth(sensorType: SensorType, healthy: boolean): boolean {
    if (!SENSOR_FIELDS[sensorType]?.includes('temperature')) return false;
    if (healthy) this.#faulted.delete(sensorType);
    else this.#faulted.add(sensorType);
    return true;
  }

  at(nowMs: number): AirTemperature {
    if (this.#faulted.size > 0) return { fresh: false, why: 'sensor fault' };
    if (!this.#last) return { fresh: false, why: 'no reading yet' };
    const ageMs = nowMs - this.#last.readAtMs;
    if (ageMs > STALE_AFTER_MS) return { fresh: false, why: `last reading ${Math.floor(ageMs / 60_000)} min old` };
    return { fresh: true, temperatureC: this.#last.temperatureC };
  }

  /** The newest reading, fresh or not (what the cut-off keeps engaged on). */
  lastC(): number | null {
    return this.#last?.temperatureC ?? null;
  }
}
