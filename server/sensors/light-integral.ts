import type { LightIntegralDay } from '../contract/reading.ts';
import { byCodePoint } from '../../common/code-point-order.ts';
import { localDateText } from '../time/local-date.ts';

/** The light level averaged per bucket (the 5-minute rollups), as the daily light integral folds it. */
export interface LightBucket {
  atMs: number;
  meanLux: number;
}

/** Bucket width of the light history the integral is computed from: the 5-minute rollups (kept 35 days). */
export const LIGHT_BUCKET_MS = 5 * 60_000;

/**
 * A bucket counts towards `hoursOfLight` from this level: ~19 µmol/m²/s of sunlight, about the light
 * compensation point of common greenhouse crops (below it a leaf respires more than it assimilates).
 */
export const LIGHT_HOURS_MIN_LUX = 1000;

export const MAX_LIGHT_INTEGRAL_DAYS = 31;

/** Local midnight `days - 1` days before the day of `nowMs`: the start of an N-day window ending today. */
export function windowStartMs(nowMs: number, days: number): number {
  const today = new Date(nowMs);
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1)).getTime();
}

/**
 * The estimated daily light integral per local day (mol/m²/day): PPFD = lux × ppfdPerLux (µmol/m²/s),
 * summed over each bucket's width. A bucket without readings adds nothing, so a day with a sensor gap
 * is underestimated rather than invented; days without any reading are left out. An estimate: an LDR
 * is not a quantum sensor and the factor depends on the light's spectrum.
 */
export function dailyLightIntegral(buckets: readonly LightBucket[], bucketMs: number, ppfdPerLux: number): LightIntegralDay[] {
  const days = new Map<string, { micromol: number; lightSeconds: number }>();
  for (const bucket of buckets) {
    const date = localDateText(bucket.atMs);
    const day = days.get(date) ?? { micromol: 0, lightSeconds: 0 };
    day.micromol += Math.max(0, bucket.meanLux) * ppfdPerLux * (bucketMs / 1000);
    if (bucket.meanLux >= LIGHT_HOURS_MIN_LUX) day.lightSeconds += bucketMs / 1000;
    days.set(date, day);
  }
  return [...days.entries()]
    .sort(([a], [b]) => byCodePoint(a, b))
    .map(([date, day]) => ({
      date,
      dliMol: Math.round((day.micromol / 1e6) * 100) / 100,
      hoursOfLight: Math.round((day.lightSeconds / 3600) * 100) / 100,
    }));
}
