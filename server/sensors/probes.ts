import { QUANTITIES, SENSOR_KINDS, type QuantityKey, type SensorKind } from '../../common/catalogue.ts';
import type { QuantityValues, SensorInstanceDriver } from '../../drivers/types.ts';
import type { SensorType } from '../contract/reading.ts';

/** How the sampler reads one sensor instance, and which zone its values count towards. */
export interface Probe {
  sensorId: string;
  kind: SensorKind;
  name: string;
  /** The zone of its quantities (an instance's quantities all belong to one zone). */
  zone: SensorType;
  quantities: readonly QuantityKey[];
  /** Reads once; rejects on failure, never resolves with a non-finite number. */
  read(): Promise<QuantityValues>;
  /** Waits before each retry within one tick; empty = one attempt per tick. */
  retryDelaysMs: readonly number[];
  /**
   * A driver that answers repeats from a cache within this window (node-dht-sensor: up to 3 s after its
   * last good read). An identical answer that soon after the last fresh one is not a new reading.
   */
  cacheWindowMs: number;
}

/** One probe per sensor instance the hardware could open. */
export function probesFor(sensors: readonly SensorInstanceDriver[]): Probe[] {
  return sensors.map((s) => ({
    sensorId: s.sensorId,
    kind: s.kind,
    name: s.name,
    zone: QUANTITIES[s.quantities[0] ?? SENSOR_KINDS[s.kind].quantities[0]!].zone,
    quantities: s.quantities,
    retryDelaysMs: s.retryDelaysMs,
    cacheWindowMs: s.cacheWindowMs,
    read: async () => {
      const values = await s.read();
      const out: QuantityValues = {};
      // Only the instance's own quantities, and only numbers: a driver's slip never becomes a value.
      for (const q of s.quantities) {
        const v = values[q];
        if (v === undefined) continue;
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${q} is not a number: ${String(v)}`);
        out[q] = v;
      }
      if (Object.keys(out).length === 0) throw new Error('answered without a value');
      return out;
    },
  }));
}
