import Type, { type Static } from 'typebox';
import { IsoTimestamp, NullableNumber } from './common.ts';

/** One row of readings per sensor and sampling tick. WATER_LEVEL is the HC-SR04 over the tank. */
export const SensorType = Type.Union([
  Type.Literal('DHT11'),
  Type.Literal('LDR'),
  Type.Literal('SOIL_MOISTURE'),
  Type.Literal('WATER_LEVEL'),
]);
export type SensorType = Static<typeof SensorType>;
export const SENSOR_TYPES: readonly SensorType[] = ['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL'];

/** Units as shown in the dashboard. */
export const SENSOR_UNITS = {
  temperature: '°C',
  humidity: '%',
  lightIntensity: 'lux',
  soilMoisture: '%',
  waterLevel: 'cm',
} as const;
export type SensorField = keyof typeof SENSOR_UNITS;

/** The fields each sensor measures: a faulted sensor loses all of them. */
export const SENSOR_FIELDS: Record<SensorType, readonly SensorField[]> = {
  DHT11: ['temperature', 'humidity'],
  LDR: ['lightIntensity'],
  SOIL_MOISTURE: ['soilMoisture'],
  WATER_LEVEL: ['waterLevel'],
};

/** One number per measured field (absent when the sensor does not measure it). */
export const FieldValues = Type.Object({
  temperature: Type.Optional(Type.Number()),
  humidity: Type.Optional(Type.Number()),
  lightIntensity: Type.Optional(Type.Number()),
  soilMoisture: Type.Optional(Type.Number()),
  waterLevel: Type.Optional(Type.Number()),
});
export type FieldValues = Static<typeof FieldValues>;

/** Any field may be missing (spec section 3): a field is absent when that sensor does not measure it. */
export const Reading = Type.Object({
  _id: Type.String(),
  greenhouseId: Type.String(),
  sensorType: SensorType,
  timestamp: IsoTimestamp,
  temperature: Type.Optional(Type.Number()),
  humidity: Type.Optional(Type.Number()),
  lightIntensity: Type.Optional(Type.Number()),
  soilMoisture: Type.Optional(Type.Number()),
  waterLevel: Type.Optional(Type.Number()),
  /** DHT11: air vapour-pressure deficit (kPa) and dew point (°C), derived from temperature and humidity. */
  vpdKpa: Type.Optional(Type.Number()),
  dewPointC: Type.Optional(Type.Number()),
  /** The sensor's main value in `unit` (temperature for DHT11). */
  value: Type.Optional(Type.Number()),
  unit: Type.Optional(Type.String()),
  /** Historical answers only: this point averages the bucket [timestamp, timestamp + bucketMs). A missing
   * bucket between two points is a gap in the data, which the chart must not bridge. */
  bucketMs: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Historical answers only: the lowest and highest value of each field within the bucket, so a chart
   * can draw the band around the mean and a spike averaged away stays visible. */
  min: Type.Optional(FieldValues),
  max: Type.Optional(FieldValues),
});
export type Reading = Static<typeof Reading>;

/** Realtime `allSensorsUpdate`: one message a tick with the newest value of every field. */
export const AllSensorsUpdate = Type.Object({
  greenhouseId: Type.String(),
  temperature: NullableNumber,
  humidity: NullableNumber,
  soilMoisture: NullableNumber,
  lightIntensity: NullableNumber,
  waterLevel: NullableNumber,
  /** From the newest temperature and humidity; null while either is missing. */
  vpdKpa: NullableNumber,
  dewPointC: NullableNumber,
  timestamp: IsoTimestamp,
});
export type AllSensorsUpdate = Static<typeof AllSensorsUpdate>;

export const SensorStatus = Type.Union([Type.Literal('online'), Type.Literal('warning'), Type.Literal('offline')]);
export type SensorStatus = Static<typeof SensorStatus>;

/** A reading is stale, and its sensor in 'warning', after 5 minutes (spec section 9). */
export const STALE_AFTER_MS = 5 * 60 * 1000;

/** How uncertain VPD is from a DHT11 (±2 °C, ±5 %RH), shown beside every VPD value. */
export const DHT11_VPD_UNCERTAINTY_KPA = 0.3;

/** The specification's five ranges, then 30 days and a year (served from the hourly rollups). */
export const HISTORY_RANGES_HOURS = [1, 6, 24, 72, 168, 720, 8760] as const;

export const SensorStats = Type.Object({
  _id: SensorType,
  count: Type.Integer(),
  avgTemperature: NullableNumber,
  avgHumidity: NullableNumber,
  avgLightIntensity: NullableNumber,
  avgSoilMoisture: NullableNumber,
  avgWaterLevel: Type.Optional(NullableNumber),
});
export type SensorStats = Static<typeof SensorStats>;

export const HourlyBucket = Type.Object({
  hour: Type.Integer({ minimum: 0, maximum: 23 }),
  count: Type.Integer(),
  avgTemperature: NullableNumber,
  avgHumidity: NullableNumber,
  avgLightIntensity: NullableNumber,
  avgSoilMoisture: NullableNumber,
});
export type HourlyBucket = Static<typeof HourlyBucket>;

/**
 * The newest value of every measured field with the time it was read, as the rule engine and the alert
 * evaluator see it. A field is null when it was never read; `readAt` lets them refuse stale values.
 */
export interface SensorSnapshot {
  takenAt: string;
  values: Record<SensorField, number | null>;
  readAt: Record<SensorField, string | null>;
}

/** One local day's estimated daily light integral (GET /api/sensors/light-integral/:greenhouseId). */
export const LightIntegralDay = Type.Object({
  /** Local calendar day, YYYY-MM-DD. */
  date: Type.String(),
  /** mol/m²/day, estimated from lux with config light.ppfdPerLux. */
  dliMol: Type.Number({ minimum: 0 }),
  /** Hours the light was above LIGHT_HOURS_MIN_LUX. */
  hoursOfLight: Type.Number({ minimum: 0 }),
});
export type LightIntegralDay = Static<typeof LightIntegralDay>;
