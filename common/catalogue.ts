/**
 * The one description of every measured quantity and every sensor kind (docs/sensors.md). The
 * readings columns, the wire fields, realtime and MQTT payloads, Home Assistant discovery, metrics, CSV
 * columns, rollups, charts and the dashboard's labels all derive from these tables: adding a quantity
 * is one entry in QUANTITIES (plus a migration for its column); adding a sensor kind is one entry in
 * SENSOR_KINDS plus its driver (server/README.md, "A new sensor kind", "A new quantity").
 *
 * Dependency-free on purpose: server/, drivers/ and web/ all import it as values.
 */

/** The spec's sensor types: the zone view. Each quantity is carried by exactly one zone. */
export const ZONES = ['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL'] as const;
export type Zone = (typeof ZONES)[number];

/** An alert threshold a grower may set for a quantity: the settings key and the bounds that make sense. */
export interface QuantityThresholds {
  /** Key in settings.alertThresholds (the spec's names: `lightLevel` for light). */
  settingsKey: string;
  bounds: ReadonlyArray<'high' | 'low'>;
  /** Defaults (null = unset, no alert). */
  defaults: Partial<Record<'high' | 'low', number | null>>;
  /**
   * The range a threshold may take (validation of PUT /api/settings/:id/thresholds): what a greenhouse
   * sensor of the quantity can report. A threshold outside it can never fire, or always fires: a typo.
   */
  minimum: number;
  maximum: number;
}

export interface QuantitySpec {
  /** Field name on the wire (readings, realtime, MQTT state). */
  field: string;
  /** SQLite column of readings (rollups keep `<column>_count/_sum/_min/_max`). */
  column: string;
  label: string;
  unit: string;
  /** Decimals shown in the dashboard, CSV and MQTT state. */
  precision: number;
  zone: Zone;
  homeAssistant: { deviceClass: string; unit: string };
  /**
   * Prometheus gauge in base units (prometheus.io/docs/practices/naming): `value * scale`. Checked by
   * `promtool check metrics` in tests.
   */
  metric: { name: string; help: string; scale: number };
  /** Line colour (the dashboard spec's for the first four: temperature red, humidity blue, light amber, soil green). */
  chart: { colour: string };
  thresholds?: QuantityThresholds;
}

export const QUANTITIES = {
  temperatureC: {
    field: 'temperature',
    column: 'temperature_c',
    label: 'Temperature',
    unit: '°C',
    precision: 1,
    zone: 'DHT11',
    homeAssistant: { deviceClass: 'temperature', unit: '°C' },
    metric: { name: 'greenhouse_air_temperature_celsius', help: 'Air temperature (zone value).', scale: 1 },
    chart: { colour: '#dc2626' },
    // -40..85 °C: the widest range of the air sensors we support (DS18B20, SHT3x).
    thresholds: { settingsKey: 'temperature', bounds: ['high', 'low'], defaults: { high: 35, low: 10 }, minimum: -40, maximum: 85 },
  },
  humidityPct: {
    field: 'humidity',
    column: 'humidity_pct',
    label: 'Humidity',
    unit: '%',
    precision: 1,
    zone: 'DHT11',
    homeAssistant: { deviceClass: 'humidity', unit: '%' },
    metric: { name: 'greenhouse_air_relative_humidity_ratio', help: 'Relative humidity of the air, 0-1 (zone value).', scale: 0.01 },
    chart: { colour: '#2563eb' },
    thresholds: { settingsKey: 'humidity', bounds: ['high', 'low'], defaults: { high: 90, low: 30 }, minimum: 0, maximum: 100 },
  },
  lightLux: {
    field: 'lightIntensity',
    column: 'light_lux',
    label: 'Light Intensity',
    unit: 'lux',
    precision: 0,
    zone: 'LDR',
    homeAssistant: { deviceClass: 'illuminance', unit: 'lx' },
    metric: { name: 'greenhouse_light_lux', help: 'Illuminance in lux (zone value).', scale: 1 },
    chart: { colour: '#f59e0b' },
    // Unset by default: every night would otherwise raise an alert. Full summer sun is about 120,000 lux;
    // 200,000 is the bound of a device's light rule as well (server/devices/schemas.ts).
    thresholds: { settingsKey: 'lightLevel', bounds: ['low'], defaults: { low: null }, minimum: 0, maximum: 200000 },
  },
  soilMoisturePct: {
    field: 'soilMoisture',
    column: 'soil_moisture_pct',
    label: 'Soil Moisture',
    unit: '%',
    precision: 1,
    zone: 'SOIL_MOISTURE',
    homeAssistant: { deviceClass: 'moisture', unit: '%' },
    metric: { name: 'greenhouse_soil_moisture_ratio', help: 'Volumetric soil moisture estimate, 0-1 (zone value).', scale: 0.01 },
    chart: { colour: '#16a34a' },
    thresholds: { settingsKey: 'soilMoisture', bounds: ['low'], defaults: { low: 25 }, minimum: 0, maximum: 100 },
  },
  waterLevelCm: {
    field: 'waterLevel',
    column: 'water_level_cm',
    label: 'Water Level',
    unit: 'cm',
    precision: 1,
    zone: 'WATER_LEVEL',
    homeAssistant: { deviceClass: 'distance', unit: 'cm' },
    metric: { name: 'greenhouse_tank_water_level_meters', help: 'Water level in the tank (zone value).', scale: 0.01 },
    chart: { colour: '#0891b2' },
    // The HC-SR04 measures up to 4 m, the deepest tank config accepts (hcsr04.tankDepthCm <= 400).
    thresholds: { settingsKey: 'waterLevel', bounds: ['low'], defaults: { low: 10 }, minimum: 0, maximum: 400 },
  },
  co2Ppm: {
    field: 'co2',
    column: 'co2_ppm',
    label: 'CO₂',
    unit: 'ppm',
    precision: 0,
    zone: 'DHT11',
    homeAssistant: { deviceClass: 'carbon_dioxide', unit: 'ppm' },
    // A mole fraction: 1 ppm = 1e-6 (Prometheus base units have no ppm).
    metric: { name: 'greenhouse_air_co2_ratio', help: 'CO2 mole fraction of the air, 1e-6 = 1 ppm (zone value).', scale: 1e-6 },
    chart: { colour: '#6b7280' },
    // Above about 1500 ppm enrichment is wasted and staff feel it; unset by default (no CO2 sensor yet).
    thresholds: { settingsKey: 'co2', bounds: ['high'], defaults: { high: null }, minimum: 0, maximum: 40000 },
  },
  pressureHpa: {
    field: 'pressure',
    column: 'pressure_hpa',
    label: 'Air Pressure',
    unit: 'hPa',
    precision: 1,
    zone: 'DHT11',
    homeAssistant: { deviceClass: 'atmospheric_pressure', unit: 'hPa' },
    metric: { name: 'greenhouse_air_pressure_pascals', help: 'Barometric air pressure (zone value).', scale: 100 },
    chart: { colour: '#7c3aed' },
  },
  rootTemperatureC: {
    field: 'rootTemperature',
    column: 'root_temperature_c',
    label: 'Root Temperature',
    unit: '°C',
    precision: 1,
    zone: 'SOIL_MOISTURE',
    homeAssistant: { deviceClass: 'temperature', unit: '°C' },
    metric: { name: 'greenhouse_root_temperature_celsius', help: 'Temperature of the root zone (zone value).', scale: 1 },
    chart: { colour: '#b45309' },
  },
} as const satisfies Record<string, QuantitySpec>;

export type QuantityKey = keyof typeof QUANTITIES;
export const QUANTITY_KEYS = Object.keys(QUANTITIES) as QuantityKey[];
export type QuantityField = (typeof QUANTITIES)[QuantityKey]['field'];
export type QuantityColumn = (typeof QUANTITIES)[QuantityKey]['column'];

/** The quantities each zone carries, in catalogue order. */
export const ZONE_QUANTITIES = Object.fromEntries(
  ZONES.map((zone) => [zone, QUANTITY_KEYS.filter((q) => QUANTITIES[q].zone === zone)]),
) as Record<Zone, QuantityKey[]>;

/** The zone's main quantity (its reading's `value`/`unit`): the first it carries. */
export const ZONE_MAIN_QUANTITY: Record<Zone, QuantityKey> = {
  DHT11: 'temperatureC',
  LDR: 'lightLux',
  SOIL_MOISTURE: 'soilMoisturePct',
  WATER_LEVEL: 'waterLevelCm',
};

export const quantityOfField = (field: string): QuantityKey | undefined => QUANTITY_KEYS.find((q) => QUANTITIES[q].field === field);

// ---------------------------------------------------------------------------------------------------
// Sensor kinds
// ---------------------------------------------------------------------------------------------------

export const SENSOR_KIND_NAMES = ['DHT11', 'DHT22', 'SHT3X', 'SHT4X', 'BME280', 'DS18B20', 'SCD4X', 'ADS1115_LDR', 'ADS1115_SOIL', 'HCSR04'] as const;
export type SensorKind = (typeof SENSOR_KIND_NAMES)[number];

/** Datasheet accuracy of one quantity: ±(absolute + relative × reading). */
export interface Accuracy {
  absolute: number;
  /** Share of the reading, e.g. 0.05 for ±5 % of reading (SCD4X). */
  relative?: number;
}

export interface SensorKindSpec {
  label: string;
  quantities: readonly QuantityKey[];
  accuracy: Partial<Record<QuantityKey, Accuracy>>;
  bus: 'gpio' | 'i2c' | '1-wire';
  /** The datasheet's minimum time between two measurements. */
  minIntervalMs: number;
  /** Waits before each retry within one sampling tick (empty = one attempt). */
  retryDelaysMs: readonly number[];
  /**
   * A driver that answers repeats from a cache within this window (node-dht-sensor: up to 3 s after its
   * last good read): an identical answer that soon is not a new reading.
   */
  cacheWindowMs: number;
}

/**
 * Accuracies are the datasheets' typical figures over the greenhouse range: DHT11 (Aosong DHT11 v1.3),
 * DHT22 (AM2302), SHT3x-DIS (Sensirion, typ. ±0.2 °C / ±2 %RH), SHT4x (SHT40-AD1B ±0.2 °C / ±1.8 %RH),
 * BME280 (Bosch BST-BME280-DS002: ±1 °C, ±3 %RH, ±1 hPa), DS18B20 (Maxim: ±0.5 °C from -10 to 85 °C),
 * SCD40/41 (Sensirion: CO2 ±(50 ppm + 5 %), T ±0.8 °C, RH ±6 %). The ADS1115 channels' accuracy is
 * the calibration's, not the ADC's: a light-dependent resistor is good to a factor, say ±20 %; a
 * capacitive soil probe to a few points; the HC-SR04 to about ±0.3 cm (its datasheet).
 */
export const SENSOR_KINDS = {
  DHT11: {
    label: 'DHT11',
    quantities: ['temperatureC', 'humidityPct'],
    accuracy: { temperatureC: { absolute: 2 }, humidityPct: { absolute: 5 } },
    bus: 'gpio',
    minIntervalMs: 1000,
    // It answers at most once a second and fails often: retry after 1 s, then 2 s.
    retryDelaysMs: [1000, 2000],
    cacheWindowMs: 3000,
  },
  DHT22: {
    label: 'DHT22 / AM2302',
    quantities: ['temperatureC', 'humidityPct'],
    accuracy: { temperatureC: { absolute: 0.5 }, humidityPct: { absolute: 2 } },
    bus: 'gpio',
    minIntervalMs: 2000,
    retryDelaysMs: [2000, 2000],
    cacheWindowMs: 3000,
  },
  SHT3X: {
    label: 'Sensirion SHT3x',
    quantities: ['temperatureC', 'humidityPct'],
    accuracy: { temperatureC: { absolute: 0.2 }, humidityPct: { absolute: 2 } },
    bus: 'i2c',
    minIntervalMs: 20,
    retryDelaysMs: [100],
    cacheWindowMs: 0,
  },
  SHT4X: {
    label: 'Sensirion SHT4x',
    quantities: ['temperatureC', 'humidityPct'],
    accuracy: { temperatureC: { absolute: 0.2 }, humidityPct: { absolute: 1.8 } },
    bus: 'i2c',
    minIntervalMs: 10,
    retryDelaysMs: [100],
    cacheWindowMs: 0,
  },
  BME280: {
    label: 'Bosch BME280',
    quantities: ['temperatureC', 'humidityPct', 'pressureHpa'],
    accuracy: { temperatureC: { absolute: 1 }, humidityPct: { absolute: 3 }, pressureHpa: { absolute: 1 } },
    bus: 'i2c',
    minIntervalMs: 50,
    retryDelaysMs: [100],
    cacheWindowMs: 0,
  },
  DS18B20: {
    label: 'Maxim DS18B20 (root zone)',
    quantities: ['rootTemperatureC'],
    accuracy: { rootTemperatureC: { absolute: 0.5 } },
    bus: '1-wire',
    // 12-bit conversion time (datasheet: 750 ms max).
    minIntervalMs: 750,
    retryDelaysMs: [1000],
    cacheWindowMs: 0,
  },
  SCD4X: {
    label: 'Sensirion SCD4x (CO₂)',
    quantities: ['co2Ppm', 'temperatureC', 'humidityPct'],
    accuracy: { co2Ppm: { absolute: 50, relative: 0.05 }, temperatureC: { absolute: 0.8 }, humidityPct: { absolute: 6 } },
    bus: 'i2c',
    // Periodic measurement: a new value every 5 s.
    minIntervalMs: 5000,
    retryDelaysMs: [],
    cacheWindowMs: 0,
  },
  ADS1115_LDR: {
    label: 'LDR on ADS1115',
    quantities: ['lightLux'],
    accuracy: { lightLux: { absolute: 0, relative: 0.2 } },
    bus: 'i2c',
    minIntervalMs: 10,
    retryDelaysMs: [],
    cacheWindowMs: 0,
  },
  ADS1115_SOIL: {
    label: 'Capacitive soil probe on ADS1115',
    quantities: ['soilMoisturePct'],
    accuracy: { soilMoisturePct: { absolute: 3 } },
    bus: 'i2c',
    minIntervalMs: 10,
    retryDelaysMs: [],
    cacheWindowMs: 0,
  },
  HCSR04: {
    label: 'HC-SR04 ultrasonic (tank)',
    quantities: ['waterLevelCm'],
    accuracy: { waterLevelCm: { absolute: 0.3 } },
    bus: 'gpio',
    // At least 60 ms between measurements (datasheet).
    minIntervalMs: 60,
    retryDelaysMs: [],
    cacheWindowMs: 0,
  },
} as const satisfies Record<SensorKind, SensorKindSpec>;

/** ±accuracy of a reading `value` of quantity `q` by a sensor of `kind` (null when it does not measure q). */
export function accuracyOf(kind: SensorKind, q: QuantityKey, value = 0): number | null {
  const acc = (SENSOR_KINDS[kind].accuracy as Partial<Record<QuantityKey, Accuracy>>)[q];
  if (!acc) return null;
  return acc.absolute + (acc.relative ?? 0) * Math.abs(value);
}

// ---------------------------------------------------------------------------------------------------
// Constants the dashboard shares with the server
// ---------------------------------------------------------------------------------------------------

/** A reading is stale, and its sensor in 'warning', after 5 minutes (docs/sensors.md). */
export const STALE_AFTER_MS = 5 * 60 * 1000;

/** Websocket close codes: token missing, bad or expired; too many sockets for one account. */
export const WS_CLOSE_UNAUTHORIZED = 4401;
export const WS_CLOSE_TOO_MANY = 4429;

/** The `actionTaken` of an alert a person resolved without saying how. */
export const MANUAL_RESOLUTION = 'Manually resolved by user';

/** Device types a user may add from the dashboard (the roof window's servo comes from config only). */
export const ADDABLE_DEVICE_TYPES = ['FAN', 'WATER_PUMP', 'LED_LIGHT', 'HEATER', 'COOLING_SYSTEM'] as const;

/** The id that always names the gateway's one greenhouse (an alias of config `greenhouseId`). */
export const GREENHOUSE_ID_ALIAS = 'default';
