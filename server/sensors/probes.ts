import type { Hardware } from '../../drivers/types.ts';
import type { SensorField, SensorType } from '../contract/reading.ts';
import type { NewReading } from './readings-repo.ts';

/** The four sensors of the Hardware bundle; each null when its driver is unavailable. */
export type SensorSet = Pick<Hardware, 'climate' | 'light' | 'soil' | 'waterLevel'>;

export const NO_SENSORS: SensorSet = { climate: null, light: null, soil: null, waterLevel: null };

/** How the sampler reads one sensor, and what its values are called on the wire. */
export interface Probe {
  sensorType: SensorType;
  /** Reads once; rejects on failure. */
  read(): Promise<Omit<NewReading, 'sensorType' | 'takenAtMs'>>;
  /** Waits before each retry within one tick; empty = one attempt per tick. */
  retryDelaysMs: readonly number[];
  /**
   * A driver that answers repeats from a cache within this window (node-dht-sensor: up to 3 s after its
   * last good read). An identical answer that soon after the last fresh one is not a new reading.
   */
  cacheWindowMs: number;
  fields: Array<{ field: SensorField; column: keyof Omit<NewReading, 'sensorType' | 'takenAtMs'> }>;
}

function finite(value: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${what} is not a number: ${value}`);
  return value;
}

/**
 * DHT11 answers at most once a second and fails often: retry after 1 s, then 2 s (the datasheet's
 * minimum sampling period is 1 s), as long as the tick's budget allows.
 */
const DHT11_RETRY_DELAYS_MS = [1000, 2000];

export function probesFor(sensors: SensorSet): Probe[] {
  const probes: Probe[] = [];
  const { climate, light, soil, waterLevel } = sensors;
  if (climate) {
    probes.push({
      sensorType: 'DHT11',
      read: async () => {
        const r = await climate.read();
        return { temperatureC: finite(r.temperatureC, 'temperature'), humidityPct: finite(r.humidityPct, 'humidity') };
      },
      retryDelaysMs: DHT11_RETRY_DELAYS_MS,
      cacheWindowMs: 3000,
      fields: [
        { field: 'temperature', column: 'temperatureC' },
        { field: 'humidity', column: 'humidityPct' },
      ],
    });
  }
  if (light) probes.push(singleValueProbe('LDR', () => light.readLux(), 'lightIntensity', 'lightLux'));
  if (soil) probes.push(singleValueProbe('SOIL_MOISTURE', () => soil.readPercent(), 'soilMoisture', 'soilMoisturePct'));
  if (waterLevel) probes.push(singleValueProbe('WATER_LEVEL', () => waterLevel.readLevelCm(), 'waterLevel', 'waterLevelCm'));
  return probes;
}

/** A sensor with one value, read once per tick (the ADC and the HC-SR04 answer at once or not at all). */
function singleValueProbe(sensorType: SensorType, read: () => Promise<number>, field: SensorField, column: Probe['fields'][number]['column']): Probe {
  return {
    sensorType,
    read: async () => ({ [column]: finite(await read(), field) }),
    retryDelaysMs: [],
    cacheWindowMs: 0,
    fields: [{ field, column }],
  };
}
