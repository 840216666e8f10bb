import { ROLLUP_RESOLUTIONS_MS } from './rollup-levels.ts';

/** Half-open [fromMs, toMs); empty when fromMs >= toMs. */
export type Interval = readonly [fromMs: number, toMs: number];

export interface HistoryPlan {
  /** Per rollup resolution (coarsest first): the bucket ranges read from it. */
  rollups: Array<{ resolutionMs: number; intervals: [Interval, Interval] }>;
  /** What is read from raw rows: the edges no rollup bucket fits in whole. */
  raw: [Interval, Interval];
}

/** Larger than any timestamp: the open end of a range with no upper bound. */
export const OPEN_END_MS = Number.MAX_SAFE_INTEGER;

const EMPTY: Interval = [0, 0];
const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** The rollup resolutions whose buckets fit exactly in a target bucket of `bucketMs` (all for none). */
export function usableResolutions(bucketMs: number | null): number[] {
  return ROLLUP_RESOLUTIONS_MS.filter((r) => bucketMs === null || (r <= bucketMs && bucketMs % r === 0));
}

/**
 * Splits [fromMs, untilMs) into the coarsest whole rollup buckets in the middle, finer ones towards
 * the edges and raw rows for what is left at each end (at most one finest bucket's worth per end).
 * Every row of the range is counted exactly once. An open end (OPEN_END_MS) needs no finer edge:
 * rollups are current up to the last tick, so the coarse level's last bucket already holds it.
 */
export function planHistory(fromMs: number, untilMs: number, resolutionsMs: readonly number[]): HistoryPlan {
  const coarseFirst = [...resolutionsMs].sort((a, b) => b - a);
  const rollups: HistoryPlan['rollups'] = [];
  let covered: Interval | null = null;
  for (const resolutionMs of coarseFirst) {
    const lo = ceilTo(fromMs, resolutionMs);
    const hi = untilMs === OPEN_END_MS ? OPEN_END_MS : floorTo(untilMs, resolutionMs);
    if (covered === null) {
      if (lo < hi) covered = [lo, hi];
      rollups.push({ resolutionMs, intervals: [covered ?? EMPTY, EMPTY] });
    } else {
      rollups.push({ resolutionMs, intervals: [[lo, covered[0]], [covered[1], hi]] });
      covered = [lo, hi];
    }
  }
  const raw: [Interval, Interval] = covered ? [[fromMs, covered[0]], [covered[1], untilMs]] : [[fromMs, untilMs], EMPTY];
  return { rollups, raw };
}
