import type { Severity } from '../contract/alert.ts';
import type { SensorField } from '../contract/reading.ts';
import type { AlertThresholds } from '../contract/settings.ts';

/**
 * One threshold the evaluator watches: which reading, which side, and how bad a given distance past it is.
 *
 * Severity bands (distance past the threshold, in the quantity's own unit):
 *   temperature high/low  °C   < 2 LOW, < 5 MEDIUM, < 8 HIGH, else CRITICAL
 *   humidity high/low     %    < 5 LOW, < 10 MEDIUM, < 20 HIGH, else CRITICAL
 *   soil moisture low     %    < 5 MEDIUM, < 10 HIGH, else CRITICAL; at or below 10 % always CRITICAL
 *                              (plants wilt: dry soil is never "low" severity)
 *   light level low       lux  relative to the threshold: < 25 % below LOW, < 50 % MEDIUM, else HIGH
 *                              (a dull day is not an emergency, so light never reaches CRITICAL)
 *   water level low       cm   < 2 MEDIUM, < 5 HIGH, else CRITICAL; at or below 3 cm (near empty) always
 *                              CRITICAL (the pump is about to run dry)
 *   CO2 high              ppm  < 200 LOW, < 500 MEDIUM, < 1500 HIGH, else CRITICAL; at or above 5000 ppm
 *                              always CRITICAL (the 8-hour workplace exposure limit: a burner or
 *                              enrichment valve is running away and people work in there)
 *
 * Deadbands: an active alert resolves itself only once the reading is back inside the threshold by at
 * least this much, so a reading wobbling on the threshold does not raise and resolve over and over.
 */
export interface ThresholdRule {
  causeKey: string;
  alertType: string;
  field: SensorField;
  side: 'high' | 'low';
  /** Lower-case name used in messages, e.g. 'temperature'. */
  label: string;
  unit: string;
  deadband: number;
  /** Decimals shown in messages. */
  decimals: number;
  threshold(thresholds: AlertThresholds): number | null;
  severity(value: number, threshold: number): Severity;
}

/** Picks a band: `limits` are the upper ends of the LOW, MEDIUM and HIGH bands. */
export function band(distance: number, limits: readonly [number, number, number], bands: readonly Severity[] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']): Severity {
  const index = limits.findIndex((limit) => distance < limit);
  return bands[index === -1 ? 3 : index] ?? 'CRITICAL';
}

export const SOIL_VERY_DRY_PCT = 10;
export const WATER_NEAR_EMPTY_CM = 3;
export const CO2_EXPOSURE_LIMIT_PPM = 5000;

type RuleSpec = Pick<ThresholdRule, 'alertType' | 'field' | 'side' | 'label' | 'unit' | 'deadband' | 'severity'> & {
  /** The group in settings.alertThresholds. */
  group: keyof AlertThresholds;
  decimals?: number;
};

function rule(spec: RuleSpec): ThresholdRule {
  const { group, side } = spec;
  return {
    ...spec,
    causeKey: `threshold:${group}:${side}`,
    decimals: spec.decimals ?? 1,
    threshold: (t) => (t[group] as Partial<Record<'high' | 'low', number | null>> | undefined)?.[side] ?? null,
  };
}

const past = (value: number, threshold: number, side: 'high' | 'low') => (side === 'high' ? value - threshold : threshold - value);
const temperature = { group: 'temperature', field: 'temperature', label: 'temperature', unit: '°C', deadband: 0.5 } as const;
const humidity = { group: 'humidity', field: 'humidity', label: 'humidity', unit: '%', deadband: 2 } as const;

export const THRESHOLD_RULES: readonly ThresholdRule[] = [
  rule({ ...temperature, alertType: 'TEMPERATURE_HIGH', side: 'high', severity: (v, t) => band(past(v, t, 'high'), [2, 5, 8]) }),
  rule({ ...temperature, alertType: 'TEMPERATURE_LOW', side: 'low', severity: (v, t) => band(past(v, t, 'low'), [2, 5, 8]) }),
  rule({ ...humidity, alertType: 'HUMIDITY_HIGH', side: 'high', severity: (v, t) => band(past(v, t, 'high'), [5, 10, 20]) }),
  rule({ ...humidity, alertType: 'HUMIDITY_LOW', side: 'low', severity: (v, t) => band(past(v, t, 'low'), [5, 10, 20]) }),
  rule({
    group: 'soilMoisture', field: 'soilMoisture', label: 'soil moisture', unit: '%', deadband: 2,
    alertType: 'SOIL_MOISTURE_LOW', side: 'low',
    severity: (v, t) => (v <= SOIL_VERY_DRY_PCT ? 'CRITICAL' : band(t - v, [5, 10, Infinity], ['MEDIUM', 'HIGH', 'CRITICAL', 'CRITICAL'])),
  }),
  rule({
    group: 'lightLevel', field: 'lightIntensity', label: 'light level', unit: 'lux', deadband: 50, decimals: 0,
    alertType: 'LIGHT_LOW', side: 'low',
    severity: (v, t) => band(t > 0 ? (t - v) / t : 1, [0.25, 0.5, Infinity], ['LOW', 'MEDIUM', 'HIGH', 'HIGH']),
  }),
  rule({
    group: 'waterLevel', field: 'waterLevel', label: 'water level', unit: 'cm', deadband: 1,
    alertType: 'WATER_LEVEL_LOW', side: 'low',
    severity: (v, t) => (v <= WATER_NEAR_EMPTY_CM ? 'CRITICAL' : band(t - v, [2, 5, Infinity], ['MEDIUM', 'HIGH', 'CRITICAL', 'CRITICAL'])),
  }),
  // Deadband 50 ppm: an SCD4x is good to ±(50 ppm + 5 %), so less than that is noise (common/catalogue.ts).
  rule({
    group: 'co2', field: 'co2', label: 'CO₂', unit: 'ppm', deadband: 50, decimals: 0,
    alertType: 'CO2_HIGH', side: 'high',
    severity: (v, t) => (v >= CO2_EXPOSURE_LIMIT_PPM ? 'CRITICAL' : band(v - t, [200, 500, 1500])),
  }),
];
