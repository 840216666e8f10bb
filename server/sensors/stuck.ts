import type { SensorType } from '../contract/reading.ts';

/**
 * When an unchanging value means a stuck sensor rather than a calm greenhouse. A value must repeat for
 * more than `minReadings` consecutive readings AND more than `minDurationMs` (both: at a 1 s interval,
 * 30 readings are only half a minute, and a DHT driver's cache repeats values for seconds).
 *
 * - DHT11 has 1 °C / 1 % resolution, so at night both fields can sit still for a while: 30 minutes, and
 *   both fields must be unchanged.
 * - LDR: a dark greenhouse legitimately reads 0 lux all night, so values at or below `ignoreAtOrBelow`
 *   never count as stuck; a lit reading that does not move by one raw ADC step for 10 minutes is stuck.
 * - Soil probe on the ADC: ADC noise moves the value; 10 minutes unchanged is stuck.
 * - Water level: a full or unused tank sits still for hours by design: never judged stuck (a dead
 *   HC-SR04 times out instead, which is a no_answer fault).
 */
export interface StuckPolicy {
  minReadings: number;
  minDurationMs: number;
  ignoreAtOrBelow?: number;
}

const MINUTE_MS = 60_000;

export const STUCK_POLICIES: Record<SensorType, StuckPolicy | null> = {
  DHT11: { minReadings: 30, minDurationMs: 30 * MINUTE_MS },
  LDR: { minReadings: 30, minDurationMs: 10 * MINUTE_MS, ignoreAtOrBelow: 0 },
  SOIL_MOISTURE: { minReadings: 30, minDurationMs: 10 * MINUTE_MS },
  WATER_LEVEL: null,
};

export interface StuckTracker {
  key: string;
  count: number;
  sinceMs: number;
}

/**
 * Pure: folds one reading (its values joined into `key`, its main value in `value`) into the tracker and
 * says whether the sensor now counts as stuck.
 */
export function trackStuck(
  tracker: StuckTracker | null,
  key: string,
  value: number,
  atMs: number,
  policy: StuckPolicy | null,
): { tracker: StuckTracker; stuck: boolean } {
  const next = tracker && tracker.key === key ? { ...tracker, count: tracker.count + 1 } : { key, count: 1, sinceMs: atMs };
  if (!policy) return { tracker: next, stuck: false };
  if (policy.ignoreAtOrBelow !== undefined && value <= policy.ignoreAtOrBelow) return { tracker: next, stuck: false };
  return { tracker: next, stuck: next.count > policy.minReadings && atMs - next.sinceMs > policy.minDurationMs };
}
