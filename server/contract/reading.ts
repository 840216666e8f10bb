import Type, { type Static, type TSchema } from 'typebox';
import { QUANTITIES, QUANTITY_KEYS, SENSOR_KIND_NAMES, ZONE_QUANTITIES, ZONES, type QuantityField, type QuantityKey, type SensorKind } from '../../common/catalogue.ts';
import { IsoTimestamp, NullableNumber } from './common.ts';

export { STALE_AFTER_MS } from '../../common/catalogue.ts';

/** One property per quantity's wire field (common/catalogue.ts), of the given schema. */
function perField<T extends TSchema>(schema: () => T): Record<QuantityField, T> {
  return Object.fromEntries(QUANTITY_KEYS.map((q) => [QUANTITIES[q].field, schema()])) as Record<QuantityField, T>;
}

/** One row of readings per sensor and sampling tick. WATER_LEVEL is the HC-SR04 over the tank. */
export const SensorType = Type.Union([Type.Literal('DHT11'), Type.Literal('LDR'), Type.Literal('SOIL_MOISTURE'), Type.Literal('WATER_LEVEL')]);
export type SensorType = Static<typeof SensorType>;
// The zones of common/catalogue.ts, spelled out for TypeBox's static type: a zone added there fails here.
const _sameZones: [SensorType, (typeof ZONES)[number]] extends [(typeof ZONES)[number], SensorType] ? true : never = true;
void _sameZones;
export const SENSOR_TYPES: readonly SensorType[] = ZONES;

/** Units as shown in the dashboard, by wire field. */
export const SENSOR_UNITS = Object.fromEntries(QUANTITY_KEYS.map((q) => [QUANTITIES[q].field, QUANTITIES[q].unit])) as Record<QuantityField, string>;
export type SensorField = QuantityField;

/** The fields each zone carries: a faulted zone loses all of them. */
export const SENSOR_FIELDS = Object.fromEntries(ZONES.map((z) => [z, ZONE_QUANTITIES[z].map((q) => QUANTITIES[q].field)])) as unknown as Record<SensorType, readonly SensorField[]>;

/** One number per measured field (absent when the sensor does not measure it). */
export const FieldValues = Type.Object(perField(() => Type.Optional(Type.Number())));
export type FieldValues = Partial<Record<SensorField, number>>;

/** Any field may be missing (docs/product.md §3): a field is absent when that sensor does not measure it. */
const ReadingBase = Type.Object({
  _id: Type.String(),
  greenhouseId: Type.String(),
  sensorType: SensorType,
  timestamp: IsoTimestamp,
  /** DHT11: air vapour-pressure deficit (kPa) and dew point (°C), derived from temperature and humidity. */
  vpdKpa: Type.Optional(Type.Number()),
  dewPointC: Type.Optional(Type.Number()),
  /** DHT11: ±kPa of vpdKpa, from the datasheet accuracy of the air sensors this value comes from. */
  vpdUncertaintyKpa: Type.Optional(Type.Number()),
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
export const Reading = Type.Object({ ...ReadingBase.properties, ...perField(() => Type.Optional(Type.Number())) });
export type Reading = Static<typeof ReadingBase> & FieldValues;

/** Realtime `allSensorsUpdate`: one message a tick with the newest value of every field. */
const AllSensorsUpdateBase = Type.Object({
  greenhouseId: Type.String(),
  /** From the newest temperature and humidity; null while either is missing. */
  vpdKpa: NullableNumber,
  dewPointC: NullableNumber,
  vpdUncertaintyKpa: NullableNumber,
  timestamp: IsoTimestamp,
});
/** Every quantity's field, null while never read (built once: server/sensors/all-sensors-update.ts). */
export const AllSensorsUpdate = Type.Object({ ...AllSensorsUpdateBase.properties, ...perField(() => NullableNumber) });
export type AllSensorsUpdate = Static<typeof AllSensorsUpdateBase> & Record<SensorField, number | null>;

/**
 * A zone's status: online; warning when its newest reading is older than STALE_AFTER_MS; offline when
 * never read; fault when every sensor of the zone is faulted (silent for 3 intervals, or stuck): no
 * screen draws a value from it.
 */
export const SensorStatus = Type.Union([Type.Literal('online'), Type.Literal('warning'), Type.Literal('offline'), Type.Literal('fault')]);
export type SensorStatus = Static<typeof SensorStatus>;

/** One sensor instance as GET /api/sensors/instances/:greenhouseId shows it. */
export const SensorInstance = Type.Object({
  sensorId: Type.String(),
  kind: Type.Unsafe<SensorKind>(Type.String({ enum: [...SENSOR_KIND_NAMES] })),
  name: Type.String(),
  /** The zone (spec sensor type) its values count towards. */
  zone: SensorType,
  quantities: Type.Array(Type.String()),
  /** ok: answered in the newest tick; stale: missed the newest tick(s) or never read; fault: silent for more than 3 intervals, or stuck. */
  status: Type.Union([Type.Literal('ok'), Type.Literal('stale'), Type.Literal('fault')]),
  lastReadingAt: Type.Union([IsoTimestamp, Type.Null()]),
  /** Its newest values and its datasheet accuracy (±, in the quantity's unit), keyed by quantity. */
  values: Type.Record(Type.String(), Type.Number()),
  accuracy: Type.Record(Type.String(), Type.Number()),
  lastError: Type.Union([Type.String(), Type.Null()]),
});
export type SensorInstance = Omit<Static<typeof SensorInstance>, 'quantities' | 'values' | 'accuracy'> & {
  quantities: QuantityKey[];
  values: Partial<Record<QuantityKey, number>>;
  accuracy: Partial<Record<QuantityKey, number>>;
};

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
 * evaluator see it. A field is null when it was never read; `readAtMs` (epoch ms) lets them refuse stale
 * values. Kept as numbers: every consumer compares it with the clock, and the rule preview fills it once per
 * recorded row.
 */
export interface SensorSnapshot {
  takenAt: string;
  values: Record<SensorField, number | null>;
  readAtMs: Record<SensorField, number | null>;
  /** ±kPa of VPD from the air sensors behind the newest temperature and humidity (absent: unknown). */
  vpdUncertaintyKpa?: number | null;
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
