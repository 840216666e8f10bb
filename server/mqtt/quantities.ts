import { QUANTITIES as CATALOGUE, QUANTITY_KEYS, ZONES, type QuantityKey } from '../../common/catalogue.ts';
import type { SensorType } from '../contract/reading.ts';

/** A quantity the gateway publishes, as a Home Assistant sensor reads it from `sensors/state`. */
export interface Quantity {
  /** The key in the `sensors/state` JSON. */
  field: string;
  objectId: string;
  name: string;
  deviceClass: string;
  unit: string;
  /** The catalogue's quantity, or null for one derived from temperature and humidity (VPD, dew point). */
  key: QuantityKey | null;
  /** The zone it comes from (the metric's `sensor` label). */
  sensorType: SensorType;
}

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Every catalogue quantity (common/catalogue.ts: Home Assistant device class and unit from
 * developers.home-assistant.io, Sensor entity), then the two derived from the air's temperature and
 * humidity.
 */
export const QUANTITIES: readonly Quantity[] = [
  ...QUANTITY_KEYS.map((key): Quantity => {
    const q = CATALOGUE[key];
    return { field: q.field, key, objectId: snake(q.field), name: q.label, deviceClass: q.homeAssistant.deviceClass, unit: q.homeAssistant.unit, sensorType: q.zone };
  }),
  { field: 'vpdKpa', key: null, sensorType: ZONES[0], objectId: 'vpd', name: 'Vapour-pressure deficit', deviceClass: 'pressure', unit: 'kPa' },
  { field: 'dewPointC', key: null, sensorType: ZONES[0], objectId: 'dew_point', name: 'Dew point', deviceClass: 'temperature', unit: '°C' },
];

export const DERIVED_FIELDS: readonly string[] = QUANTITIES.filter((q) => q.key === null).map((q) => q.field);
