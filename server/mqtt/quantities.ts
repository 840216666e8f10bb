import type { Reading, SensorSnapshot, SensorType } from '../contract/reading.ts';

/** A quantity the gateway measures, as a Home Assistant sensor reads it from `sensors/state`. */
export interface Quantity {
  /** The key in the `sensors/state` JSON. */
  field: string;
  objectId: string;
  name: string;
  deviceClass: string;
  unit: string;
  /** Published only once a reading carries it (VPD and dew point come with DHT11 readings). */
  derived: boolean;
  /** Prometheus metric name, unit in the name (prometheus.io, Metric and label naming). */
  metric: string;
  /** The sensor it comes from (the metric's `sensor` label). */
  sensorType: SensorType;
}

/**
 * One list for Home Assistant (device classes and units from developers.home-assistant.io, Sensor
 * entity) and Prometheus (metric names with their unit).
 */
export const QUANTITIES: readonly Quantity[] = [
  { field: 'temperature', sensorType: 'DHT11', metric: 'greenhouse_temperature_celsius', objectId: 'temperature', name: 'Temperature', deviceClass: 'temperature', unit: '°C', derived: false },
  { field: 'humidity', sensorType: 'DHT11', metric: 'greenhouse_humidity_percent', objectId: 'humidity', name: 'Humidity', deviceClass: 'humidity', unit: '%', derived: false },
  { field: 'lightIntensity', sensorType: 'LDR', metric: 'greenhouse_light_lux', objectId: 'light_intensity', name: 'Light', deviceClass: 'illuminance', unit: 'lx', derived: false },
  { field: 'soilMoisture', sensorType: 'SOIL_MOISTURE', metric: 'greenhouse_soil_moisture_percent', objectId: 'soil_moisture', name: 'Soil moisture', deviceClass: 'moisture', unit: '%', derived: false },
  { field: 'waterLevel', sensorType: 'WATER_LEVEL', metric: 'greenhouse_water_level_centimeters', objectId: 'water_level', name: 'Water tank level', deviceClass: 'distance', unit: 'cm', derived: false },
  { field: 'vpdKpa', sensorType: 'DHT11', metric: 'greenhouse_vpd_kilopascals', objectId: 'vpd', name: 'Vapour-pressure deficit', deviceClass: 'pressure', unit: 'kPa', derived: true },
  { field: 'dewPointC', sensorType: 'DHT11', metric: 'greenhouse_dew_point_celsius', objectId: 'dew_point', name: 'Dew point', deviceClass: 'temperature', unit: '°C', derived: true },
];

export const DERIVED_FIELDS: readonly string[] = QUANTITIES.filter((q) => q.derived).map((q) => q.field);

/**
 * The newest VPD and dew point, from the snapshot or a tick's readings, whichever carries them (the
 * climate-metrics work adds them to DHT11 readings). Until one is seen its quantity is not announced.
 */
export class LatestDerived {
  readonly #values = new Map<string, number>();

  /** Takes a tick's values; answers true when a quantity appears for the first time. */
  observe(snapshot: SensorSnapshot, readings: readonly Reading[]): boolean {
    let appeared = false;
    const sources: Array<Record<string, unknown>> = [snapshot.values, ...readings];
    for (const source of sources) {
      for (const field of DERIVED_FIELDS) {
        const value = source[field];
        if (typeof value !== 'number' || !Number.isFinite(value)) continue;
        if (!this.#values.has(field)) appeared = true;
        this.#values.set(field, value);
      }
    }
    return appeared;
  }

  get(field: string): number | null {
    return this.#values.get(field) ?? null;
  }

  fields(): Set<string> {
    return new Set(this.#values.keys());
  }

  entries(): Array<[string, number]> {
    return [...this.#values];
  }
}
