import { READING_FIELD_COLUMNS } from '../db/schema.ts';

export type FieldColumn = (typeof READING_FIELD_COLUMNS)[number];
export { READING_FIELD_COLUMNS as FIELD_COLUMNS };

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * The rollup resolutions, finest first; each divides the next, so a coarse bucket is a whole number of
 * finer ones and a range can be read as coarse buckets in the middle and finer ones at its edges.
 * The 1 min level serves the 24 h chart (2 min points), 5 min the 3-day and week charts (5 and 10 min
 * points), 1 h the 30-day and year charts, hourly analytics and long stats. Home Assistant keeps 5 min
 * and hourly statistics for the same reasons.
 */
export const ROLLUP_RESOLUTIONS_MS = [MINUTE_MS, 5 * MINUTE_MS, HOUR_MS] as const;

/**
 * How long each level is kept, whatever `dataRetentionDays` says for raw rows. The fine levels only
 * ever serve recent ranges (and the edges of longer ones); the hourly level is the long-term history,
 * about 35,000 rows (~5 MB) a year for four sensors.
 */
export const ROLLUP_KEEP_DAYS: Record<number, number> = {
  [MINUTE_MS]: 8,
  [5 * MINUTE_MS]: 35,
  [HOUR_MS]: 5 * 366,
};
