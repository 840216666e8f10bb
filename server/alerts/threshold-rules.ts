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

export const THRESHOLD_RULES: readonly ThresholdRule[] = [
  {
    causeKey: 'threshold:temperature:high',
    alertType: 'TEMPERATURE_HIGH',
    field: 'temperature',
    side: 'high',
    label: 'temperature',
    unit: '°C',
    deadband: 0.5,
    decimals: 1,
    threshold: (t) => t.temperature.high,
    severity: (value, threshold) => band(value - threshold, [2, 5, 8]),
  },
  {
    causeKey: 'threshold:temperature:low',
    alertType: 'TEMPERATURE_LOW',
    field: 'temperature',
    side: 'low',
    label: 'temperature',
    unit: '°C',
    deadband: 0.5,
    decimals: 1,
    threshold: (t) => t.temperature.low,
    severity: (value, threshold) => band(threshold - value, [2, 5, 8]),
  },
  {
    causeKey: 'threshold:humidity:high',
    alertType: 'HUMIDITY_HIGH',
    field: 'humidity',
    side: 'high',
    label: 'humidity',
    unit: '%',
    deadband: 2,
    decimals: 1,
    threshold: (t) => t.humidity.high,
    severity: (value, threshold) => band(value - threshold, [5, 10, 20]),
  },
  {
    causeKey: 'threshold:humidity:low',
    alertType: 'HUMIDITY_LOW',
    field: 'humidity',
    side: 'low',
    label: 'humidity',
    unit: '%',
    deadband: 2,
    decimals: 1,
    threshold: (t) => t.humidity.low,
    severity: (value, threshold) => band(threshold - value, [5, 10, 20]),
  },
  {
    causeKey: 'threshold:soilMoisture:low',
    alertType: 'SOIL_MOISTURE_LOW',
    field: 'soilMoisture',
    side: 'low',
    label: 'soil moisture',
    unit: '%',
    deadband: 2,
    decimals: 1,
    threshold: (t) => t.soilMoisture.low,
    severity: (value, threshold) =>
      value <= SOIL_VERY_DRY_PCT ? 'CRITICAL' : band(threshold - value, [5, 10, Infinity], ['MEDIUM', 'HIGH', 'CRITICAL', 'CRITICAL']),
  },
  {
    causeKey: 'threshold:lightLevel:low',
    alertType: 'LIGHT_LOW',
    field: 'lightIntensity',
    side: 'low',
    label: 'light level',
    unit: 'lux',
    deadband: 50,
    decimals: 0,
    threshold: (t) => t.lightLevel.low,
    severity: (value, threshold) => band(threshold > 0 ? (threshold - value) / threshold : 1, [0.25, 0.5, Infinity], ['LOW', 'MEDIUM', 'HIGH', 'HIGH']),
  },
  {
    causeKey: 'threshold:waterLevel:low',
    alertType: 'WATER_LEVEL_LOW',
    field: 'waterLevel',
    side: 'low',
    label: 'water level',
    unit: 'cm',
    deadband: 1,
    decimals: 1,
    threshold: (t) => t.waterLevel.low,
    severity: (value, threshold) =>
      value <= WATER_NEAR_EMPTY_CM ? 'CRITICAL' : band(threshold - value, [2, 5, Infinity], ['MEDIUM', 'HIGH', 'CRITICAL', 'CRITICAL']),
  },
];
