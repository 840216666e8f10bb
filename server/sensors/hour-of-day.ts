import type { HourlyBucket } from '../contract/reading.ts';
import { meanOf, type AggregateRow } from '../history/history-queries.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../history/rollup-levels.ts';

/** The columns the hourly view averages, in HourlyBucket's order. */
const HOURLY_COLUMNS = ['temperature_c', 'humidity_pct', 'light_lux', 'soil_moisture_pct'] as const;

/**
 * Per hour of day 0-23 in the gateway's local time: the rows summarised, and per HOURLY_COLUMNS column
 * its readings' count and sum. Sums of several zones (or several reads) add up to the sums of all of
 * them, so the hourly view can be read a zone at a time and summed.
 */
export type HourOfDaySums = Array<{ n: number; fields: Array<{ n: number; sum: number }> }>;

export function emptyHourOfDaySums(): HourOfDaySums {
  return Array.from({ length: 24 }, () => ({ n: 0, fields: HOURLY_COLUMNS.map(() => ({ n: 0, sum: 0 })) }));
}

/**
 * Adds rows grouped per time bucket since the epoch (hourBucketMs), folded by the local hour of day of
 * each bucket's start. `new Date(...).getHours()` is DST-correct per bucket: an operator reads "14:00"
 * as the afternoon in their greenhouse, not UTC.
 */
export function addTimeBucketRows(sums: HourOfDaySums, rows: AggregateRow[]): HourOfDaySums {
  for (const row of rows) {
    const hour = sums[new Date(row.atMs!).getHours()]!;
    hour.n += row.n;
    HOURLY_COLUMNS.forEach((column, i) => {
      hour.fields[i]!.n += row.fields[column].n;
      hour.fields[i]!.sum += row.fields[column].sum;
    });
  }
  return sums;
}

const QUARTER_HOUR_MS = 15 * MINUTE_MS;
/**
 * The longest range summed in quarter hours: a week, read from the 5-minute rollups like Last Week's
 * charts. A month of them is 4,320 buckets per zone, a zone's turn about 25 ms of the event loop at full
 * speed and so some 200 ms on a Pi core (docs/performance.md, "What a preview's rows cost").
 */
const QUARTER_HOURS_MAX_MS = 7 * DAY_MS;

/**
 * The time buckets the hourly view groups [fromMs, untilMs) by. Where the local hours start on UTC
 * hours, the hourly rollups. Where they do not (India +5:30, Nepal +5:45, Newfoundland -3:30, South
 * Australia +9:30, Lord Howe's +10:30), an hourly rollup bucket spans two local hours, so quarter
 * hours, which every such offset is a whole number of, for up to a week. A longer range (30 days, Last
 * Year) reads the hourly rollups and puts each in the local hour it starts in.
 */
export function hourBucketMs(fromMs: number, untilMs: number): number {
  const whole = (ms: number) => new Date(ms).getTimezoneOffset() % 60 === 0;
  if (whole(fromMs) && whole(untilMs)) return HOUR_MS;
  return untilMs - fromMs <= QUARTER_HOURS_MAX_MS ? QUARTER_HOUR_MS : HOUR_MS;
}

/** Several reads' sums, added. */
export function addHourOfDaySums(parts: HourOfDaySums[]): HourOfDaySums {
  const total = emptyHourOfDaySums();
  for (const part of parts) {
    part.forEach((hour, h) => {
      total[h]!.n += hour.n;
      hour.fields.forEach((field, i) => {
        total[h]!.fields[i]!.n += field.n;
        total[h]!.fields[i]!.sum += field.sum;
      });
    });
  }
  return total;
}

/** `value` to `digits` decimals; null stays null (no readings). */
export const roundOrNull = (value: number | null, digits: number): number | null =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;
const mean = (field: { n: number; sum: number }) => meanOf({ ...field, min: null, max: null });

/** The hourly view: every hour present (count 0 when no readings). */
export function hourlyBuckets(sums: HourOfDaySums): HourlyBucket[] {
  return sums.map((hour, h) => ({
    hour: h,
    count: hour.n,
    // Spec section 9: temperature, humidity and soil to 1 decimal, light to 0.
    avgTemperature: roundOrNull(mean(hour.fields[0]!), 1),
    avgHumidity: roundOrNull(mean(hour.fields[1]!), 1),
    avgLightIntensity: roundOrNull(mean(hour.fields[2]!), 0),
    avgSoilMoisture: roundOrNull(mean(hour.fields[3]!), 1),
  }));
}
