import Type, { type Static } from 'typebox';

/** An ADS1115 count (0-32767). */
export const AdcCount = Type.Integer({ minimum: 0, maximum: 32767 });

/** One ADC sensor instance as the calibration screen shows it (GET /api/sensors/calibration/:greenhouseId). */
export const SensorCalibrationView = Type.Object({
  sensorId: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('ADS1115_SOIL'), Type.Literal('ADS1115_LDR')]),
  /** The newest raw count read, null before the first read. */
  raw: Type.Union([AdcCount, Type.Null()]),
  /** What the newest raw count reads as with the calibration in force (% or lux). */
  value: Type.Union([Type.Number(), Type.Null()]),
  /** Soil: the dry and wet counts in force (from the dashboard, else the config). */
  dryRaw: Type.Optional(AdcCount),
  wetRaw: Type.Optional(AdcCount),
  /** LDR: the factor on the config's light curve (1 without a dashboard calibration). */
  luxScale: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  /** True when the dashboard's calibration is in force, false for the config's. */
  calibrated: Type.Boolean(),
});
export type SensorCalibrationView = Static<typeof SensorCalibrationView>;

export const SoilCalibrationBody = Type.Object({ dryRaw: AdcCount, wetRaw: AdcCount }, { additionalProperties: false });
export type SoilCalibrationBody = Static<typeof SoilCalibrationBody>;

/** The lux a reference meter reads beside the LDR now. */
export const LightCalibrationBody = Type.Object({ referenceLux: Type.Number({ exclusiveMinimum: 0, maximum: 200000 }) }, { additionalProperties: false });
export type LightCalibrationBody = Static<typeof LightCalibrationBody>;
