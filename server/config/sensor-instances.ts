import Type, { type TSchema } from 'typebox';
import Value from 'typebox/value';
import { SENSOR_KIND_NAMES, type SensorKind } from '../../common/catalogue.ts';
import type { SensorInstanceOptions } from '../../drivers/options.ts';

/*
 * Config `sensors.instances` (docs/sensors.md): every sensor the gateway reads, by kind. The config
 * schema accepts any object with a known kind; checkSensorInstances then holds each entry to its
 * kind's strict schema, so an error names the field of the kind the operator meant, not every kind's.
 */

const Pin = Type.Integer({ minimum: 0, maximum: 27, description: 'BCM GPIO number' });
const I2cBus = Type.Integer({ minimum: 0, maximum: 10 });
/** 7-bit I2C addresses outside the reserved ranges (0x00-0x07, 0x78-0x7F). */
const I2cAddress = Type.Integer({ minimum: 0x08, maximum: 0x77 });
const AdsAddress = Type.Integer({ minimum: 0x48, maximum: 0x4b });
const AdsChannel = Type.Integer({ minimum: 0, maximum: 3 });
const AdsRaw = Type.Integer({ minimum: 0, maximum: 32767 });
/** The kernel's w1 name of a DS18B20: family code 28, a dash, the 48-bit serial in hex. */
const W1Id = Type.String({ pattern: '^28-[0-9a-f]{12}$' });

export const SensorId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_-]+$' });
const Name = Type.String({ minLength: 1, maxLength: 100 });

/** The loose shape the config schema checks: a known kind; the rest is checked per kind below. */
export const SensorInstanceEntrySchema = Type.Object(
  {
    sensorId: SensorId,
    /** Checked by checkSensorInstances, which names the allowed kinds in one line. */
    kind: Type.String(),
    name: Type.Optional(Name),
  },
  { additionalProperties: true },
);

const base = { sensorId: SensorId, name: Type.Optional(Name) };
const strict = { additionalProperties: false } as const;

/** Each kind's wiring, strict: an unknown key is an error naming it. */
const KIND_SCHEMAS: Record<SensorKind, TSchema> = {
  DHT11: Type.Object({ ...base, kind: Type.Literal('DHT11'), pin: Pin }, strict),
  DHT22: Type.Object({ ...base, kind: Type.Literal('DHT22'), pin: Pin }, strict),
  SHT3X: Type.Object({ ...base, kind: Type.Literal('SHT3X'), bus: I2cBus, address: I2cAddress }, strict),
  SHT4X: Type.Object({ ...base, kind: Type.Literal('SHT4X'), bus: I2cBus, address: I2cAddress }, strict),
  BME280: Type.Object({ ...base, kind: Type.Literal('BME280'), bus: I2cBus, address: I2cAddress }, strict),
  SCD4X: Type.Object({ ...base, kind: Type.Literal('SCD4X'), bus: I2cBus, address: I2cAddress }, strict),
  DS18B20: Type.Object({ ...base, kind: Type.Literal('DS18B20'), w1Id: W1Id }, strict),
  ADS1115_LDR: Type.Object(
    {
      ...base,
      kind: Type.Literal('ADS1115_LDR'),
      bus: I2cBus,
      address: AdsAddress,
      channel: AdsChannel,
      lightCurve: Type.Array(Type.Tuple([Type.Number({ minimum: 0 }), Type.Number({ minimum: 0 })]), { minItems: 2 }),
    },
    strict,
  ),
  ADS1115_SOIL: Type.Object(
    { ...base, kind: Type.Literal('ADS1115_SOIL'), bus: I2cBus, address: AdsAddress, channel: AdsChannel, dryRaw: AdsRaw, wetRaw: AdsRaw },
    strict,
  ),
  HCSR04: Type.Object(
    { ...base, kind: Type.Literal('HCSR04'), triggerPin: Pin, echoPin: Pin, tankDepthCm: Type.Number({ minimum: 5, maximum: 400 }) },
    strict,
  ),
};

/** Defaults per kind, so `{ sensorId, kind: 'SHT3X' }` is a working SHT3x on bus 1 at 0x44. */
const KIND_DEFAULTS: Partial<Record<SensorKind, Record<string, unknown>>> = {
  SHT3X: { bus: 1, address: 0x44 },
  SHT4X: { bus: 1, address: 0x44 },
  BME280: { bus: 1, address: 0x76 },
  SCD4X: { bus: 1, address: 0x62 },
  ADS1115_LDR: { bus: 1, address: 0x48, channel: 0 },
  ADS1115_SOIL: { bus: 1, address: 0x48, channel: 1, dryRaw: 17500, wetRaw: 7500 },
};

const DEFAULT_LIGHT_CURVE: ReadonlyArray<readonly [number, number]> = [
  [1000, 1],
  [8000, 100],
  [16000, 1000],
  [24000, 10000],
  [30000, 60000],
];

export type SensorInstanceConfig = Required<Pick<SensorInstanceOptions, 'name'>> & SensorInstanceOptions;

/** An entry as the config schema lets it through: a known kind, the rest still to check. */
export type SensorInstanceEntry = { sensorId: string; kind: SensorKind; name?: string } & Record<string, unknown>;
type Entry = SensorInstanceEntry;

/** With its kind's defaults filled in (name: its sensorId). */
export function withKindDefaults(entry: Entry): Record<string, unknown> {
  const defaults: Record<string, unknown> = { ...KIND_DEFAULTS[entry.kind] };
  if (entry.kind === 'ADS1115_LDR') defaults.lightCurve = DEFAULT_LIGHT_CURVE;
  return { ...defaults, ...entry, name: entry.name ?? entry.sensorId };
}

/**
 * One problem per bad field, each naming it (`sensors.instances.1.address: ...`): the kind's wiring,
 * then the cross-instance rules (unique sensorId, no two sensors on one pin or I2C address).
 */
export function checkSensorInstances(entries: readonly Entry[] | undefined): string[] {
  if (!entries || !Array.isArray(entries)) return [];
  const list: readonly Entry[] = entries;
  const problems: string[] = [];
  const ids = new Map<string, number>();
  const places = new Map<string, number>();
  list.forEach((raw, i) => {
    const at = `sensors.instances.${i}`;
    if (typeof raw !== 'object' || raw === null) return; // the config schema reported it
    if (!(SENSOR_KIND_NAMES as readonly string[]).includes(raw.kind)) {
      problems.push(`${at}.kind: must be one of ${SENSOR_KIND_NAMES.map((k) => JSON.stringify(k)).join(', ')}, got ${JSON.stringify(raw.kind)}`);
      return;
    }
    const entry = withKindDefaults(raw);
    for (const error of Value.Errors(KIND_SCHEMAS[raw.kind], entry)) {
      const e = error as unknown as { instancePath: string; message: string; params: Record<string, unknown>; keyword: string };
      // An unknown key comes twice: once at its own path ('schema is false'), once for the object.
      if (e.keyword === 'additionalProperties') continue;
      const key = e.instancePath.replaceAll('/', '.');
      const what = e.keyword === 'boolean' ? `is not a setting of a ${raw.kind}` : e.message;
      problems.push(`${at}${key}: ${what}, got ${JSON.stringify(Value.Pointer.Get(entry, e.instancePath) ?? null)}`);
    }
    const first = ids.get(raw.sensorId);
    if (first !== undefined) problems.push(`${at}.sensorId: ${JSON.stringify(raw.sensorId)} is already used by sensors.instances.${first}`);
    else ids.set(raw.sensorId, i);
    for (const place of placesOf(entry)) {
      const other = places.get(place);
      // Two ADS1115 channels share one chip: the same address on another channel is fine.
      if (other !== undefined) problems.push(`${at}: ${place} is already used by sensors.instances.${other}`);
      else places.set(place, i);
    }
  });
  return problems;
}

function placesOf(e: Record<string, unknown>): string[] {
  switch (e.kind) {
    case 'DHT11':
    case 'DHT22':
      return [`GPIO ${String(e.pin)}`];
    case 'HCSR04':
      return [`GPIO ${String(e.triggerPin)}`, `GPIO ${String(e.echoPin)}`];
    case 'ADS1115_LDR':
    case 'ADS1115_SOIL':
      return [`ADS1115 channel ${String(e.channel)} at 0x${Number(e.address).toString(16)} on bus ${String(e.bus)}`];
    case 'DS18B20':
      return [`1-Wire ${String(e.w1Id)}`];
    default:
      return [`I2C address 0x${Number(e.address).toString(16)} on bus ${String(e.bus)}`];
  }
}

/** The legacy keys as config holds them (each has defaults). */
export interface LegacySensors {
  dht11: { pin: number };
  ads1115: { bus: number; address: number; ldrChannel: number; soilChannel: number; soilDryRaw: number; soilWetRaw: number; lightCurve: ReadonlyArray<readonly [number, number]> };
  hcsr04: { triggerPin: number; echoPin: number; tankDepthCm: number };
}

/**
 * The instances the gateway reads. With `sensors.instances` set, that list is the whole truth; without
 * it, the release-0.1 keys (`dht11`, `ads1115`, `hcsr04`, defaults included) become the four
 * instances `dht11`, `ldr`, `soil` and `tank`, so an existing config reads what it always read.
 */
export function resolveSensorInstances(sensors: LegacySensors & { instances?: readonly Entry[] }): SensorInstanceConfig[] {
  if (sensors.instances) return sensors.instances.map((e) => withKindDefaults(e) as unknown as SensorInstanceConfig);
  const { dht11, ads1115: ads, hcsr04 } = sensors;
  return [
    { sensorId: 'dht11', kind: 'DHT11', name: 'Air (DHT11)', pin: dht11.pin },
    { sensorId: 'ldr', kind: 'ADS1115_LDR', name: 'Light (LDR)', bus: ads.bus, address: ads.address, channel: ads.ldrChannel, lightCurve: ads.lightCurve },
    { sensorId: 'soil', kind: 'ADS1115_SOIL', name: 'Soil probe', bus: ads.bus, address: ads.address, channel: ads.soilChannel, dryRaw: ads.soilDryRaw, wetRaw: ads.soilWetRaw },
    { sensorId: 'tank', kind: 'HCSR04', name: 'Tank (HC-SR04)', triggerPin: hcsr04.triggerPin, echoPin: hcsr04.echoPin, tankDepthCm: hcsr04.tankDepthCm },
  ];
}
