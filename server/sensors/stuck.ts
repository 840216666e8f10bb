import type { SensorType } from '../contract/reading.ts';

/**
 * When an unchanging value means a stuck sensor rather than a calm greenhouse. A value must repeat for
 * more than `minReadings` consecutive readings AND more than `minDurationMs` (both: at a 1 s interval,
 * 30 readings are only half a minute, and a DHT driver's cache repeats values for seconds).
 *
 * - DHT11 has 1 °C / 1 % resolution, so at night both fields can sit still for a while: 30 minutes, and
 *   both fields must be unchanged.
 * - A value pinned at the end of a sensor's range is not judged: the conversion clamps there, so it sits
 *   still legitimately (`ignoreAtOrBelow` / `ignoreAtOrAbove`).
 * - LDR: at night it reads its light curve's lowest point (1 lux with the default curve) for hours, and
 *   in full sun it saturates near the top (60,000 lux by default): only values between 10 and 50,000 lux
 *   are judged; a reading there that does not move by one ADC step for 10 minutes is stuck.
 * - Soil probe on the ADC: ADC noise moves the value; 10 minutes unchanged is stuck, except at the
 *   clamped 0 % (bone dry) and 100 % (soaked).
 * - Water level: a full or unused tank sits still for hours by design: never judged stuck (a dead
 *   HC-SR04 times out instead, which is a no_answer fault).
 */
export interface StuckPolicy {
  minReadings: number;
  minDurationMs: number;
  ignoreAtOrBelow?: number;
  ignoreAtOrAbove?: number;
}

const MINUTE_MS = 60_000;

export const STUCK_POLICIES: Record<SensorType, StuckPolicy | null> = {
  DHT11: { minReadings: 30, minDurationMs: 30 * MINUTE_MS },
  LDR: { minReadings: 30, minDurationMs: 10 * MINUTE_MS, ignoreAtOrBelow: 10, ignoreAtOrAbove: 50_000 },
  SOIL_MOISTURE: { minReadings: 30, minDurationMs: 10 * MINUTE_MS, ignoreAtOrBelow: 0, ignoreAtOrAbove: 100 },
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
  if (policy.ignoreAtOrAbove !== undefined && value >= policy.ignoreAtOrAbove) return { tracker: next, stuck: false };
  return { tracker: next, stuck: next.count > policy.minReadings && atMs - next.sinceMs > policy.minDurationMs };
}
