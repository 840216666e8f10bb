/** Ranges longer than this start at the first reading when the data is younger than the range. */
export const LONG_RANGE_HOURS = 31 * 24;
const WEEK_S = 7 * 24 * 3600;

/**
 * The time axis of a history chart, in seconds: the whole selected range, ending now, so a sensor that
 * started late or went silent shows as empty space and a single bucket does not collapse the axis. Past
 * a month the axis starts at the first reading instead (never less than a week before now): a young
 * installation's 40 days fill Last Year's chart rather than a sliver at its right edge.
 */
export function timeAxisRange(hours: number, firstPointS: number | null | undefined, nowS: number): [number, number] {
  const fromS = nowS - hours * 3600;
  if (hours <= LONG_RANGE_HOURS || firstPointS == null || firstPointS <= fromS) return [fromS, nowS];
  return [Math.min(firstPointS, nowS - WEEK_S), nowS];
}
