import Type, { type Static } from 'typebox';
import { QUANTITIES } from '../../common/catalogue.ts';
import { NullableNumber } from './common.ts';

/** A threshold of a quantity, bounded by what its sensors can report (common/catalogue.ts); null = unset. */
const threshold = (quantity: 'humidityPct' | 'soilMoisturePct' | 'lightLux' | 'waterLevelCm' | 'co2Ppm') => {
  const { minimum, maximum } = QUANTITIES[quantity].thresholds;
  return Type.Union([Type.Number({ minimum, maximum }), Type.Null()]);
};

/**
 * null means unset: no alert for that bound. Air temperature is left unbounded here (the wire's type);
 * the settings route bounds it by the catalogue too (server/settings/schemas.ts).
 */
export const AlertThresholds = Type.Object({
  temperature: Type.Object({ high: NullableNumber, low: NullableNumber }),
  humidity: Type.Object({ high: threshold('humidityPct'), low: threshold('humidityPct') }),
  soilMoisture: Type.Object({ low: threshold('soilMoisturePct') }),
  lightLevel: Type.Object({ low: threshold('lightLux') }),
  waterLevel: Type.Object({ low: threshold('waterLevelCm') }),
  // Settings stored before co2 existed are merged over the defaults when read, so they answer
  // `co2: { high: null }` without a migration.
  co2: Type.Object({ high: threshold('co2Ppm') }),
});
export type AlertThresholds = Static<typeof AlertThresholds>;

export const SystemSettings = Type.Object({
  dataRetentionDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  /** Sampling interval in seconds. */
  updateInterval: Type.Integer({ minimum: 1, maximum: 3600 }),
  autoBackup: Type.Boolean(),
  maintenanceMode: Type.Boolean(),
  /** Where the greenhouse stands, for sunrise/sunset schedules; applied at once. Config `site` is its default. */
  /** An unacknowledged CRITICAL alert is sent again to every notification channel this often, quiet hours or not. */
  escalateAfterMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  site: Type.Union([
    Type.Object(
      { latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }) },
      { additionalProperties: false },
    ),
    Type.Null(),
  ]),
});
export type SystemSettings = Static<typeof SystemSettings>;

/** Safety and anti-chatter limits of the outputs (the specification leaves these fields open). */
export const DeviceSettings = Type.Object({
  /** A pump's on-time within any window of `pumpRunWindowMinutes` is at most this (a run budget). */
  pumpMaxRunSeconds: Type.Integer({ minimum: 5, maximum: 3600 }),
  /** The sliding window of the pump run budget; no off/on pattern resets it. */
  pumpRunWindowMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  /** A heater switched on by a person or MQTT goes off after this (auto mode is bounded by its rules). */
  heaterMaxRunMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  /** Switch-ons per output within any hour, from every source: relays and compressors die of chatter. */
  maxSwitchesPerHour: Type.Integer({ minimum: 1, maximum: 3600 }),
  /** Below this water level the pump is locked out (dry-run protection). */
  tankLowLevelCm: Type.Number({ minimum: 0, maximum: 1000 }),
  /** Minimum time an output stays on / off after a rule switched it. */
  minOnSeconds: Type.Integer({ minimum: 0, maximum: 3600 }),
  minOffSeconds: Type.Integer({ minimum: 0, maximum: 3600 }),
  /** Hysteresis bands: a rule that turned on turns off only this far back past its threshold. */
  deadband: Type.Object({
    temperatureC: Type.Number({ minimum: 0, maximum: 20 }),
    humidityPct: Type.Number({ minimum: 0, maximum: 50 }),
    soilMoisturePct: Type.Number({ minimum: 0, maximum: 50 }),
    lightLux: Type.Number({ minimum: 0, maximum: 100000 }),
  }),
  /** Above this air temperature safety switches every heater off and refuses to switch one on. */
  heaterCutoffC: Type.Number({ minimum: 0, maximum: 80 }),
});
export type DeviceSettings = Static<typeof DeviceSettings>;

export const Settings = Type.Object({
  greenhouseId: Type.String(),
  alertThresholds: AlertThresholds,
  systemSettings: SystemSettings,
  deviceSettings: DeviceSettings,
});
export type Settings = Static<typeof Settings>;

export const DEFAULT_ALERT_THRESHOLDS: AlertThresholds = {
  temperature: { high: 35, low: 10 },
  humidity: { high: 90, low: 30 },
  soilMoisture: { low: 25 },
  // Light is left unset: every night would otherwise raise an alert.
  lightLevel: { low: null },
  waterLevel: { low: 10 },
  co2: { high: QUANTITIES.co2Ppm.thresholds.defaults.high },
};

export const DEFAULT_SYSTEM_SETTINGS: SystemSettings = {
  dataRetentionDays: 30,
  updateInterval: 5,
  autoBackup: true,
  maintenanceMode: false,
  escalateAfterMinutes: 15,
  site: null,
};

export const DEFAULT_DEVICE_SETTINGS: DeviceSettings = {
  pumpMaxRunSeconds: 300,
  pumpRunWindowMinutes: 60,
  heaterMaxRunMinutes: 240,
  maxSwitchesPerHour: 30,
  tankLowLevelCm: 10,
  minOnSeconds: 30,
  minOffSeconds: 30,
  deadband: { temperatureC: 0.5, humidityPct: 3, soilMoisturePct: 3, lightLux: 50 },
  heaterCutoffC: 35,
};
