import { describe, expect, it } from 'vitest';
import { bucketMsFor, historicalRange, historicalSlices, ROWS_PER_HISTORY_SLICE } from '../../../server/sensors/readings-repo.ts';

const NOW_MS = Date.UTC(2026, 10, 25, 13, 47, 12, 345);

describe('historicalSlices (a long history read a piece at a time)', () => {
  for (const hours of [1, 6, 24, 72, 168, 720, 8760]) {
    it(`covers ${hours} h exactly, cut only at bucket starts`, () => {
      const { fromMs, untilMs, bucketMs } = historicalRange(hours, NOW_MS);
      expect(bucketMs).toBe(bucketMsFor(hours));
      const slices = historicalSlices(fromMs, untilMs, bucketMs);
      expect(slices[0]![0]).toBe(fromMs);
      expect(slices.at(-1)![1]).toBe(untilMs);
      slices.forEach(([from, until], i) => {
        expect(until).toBeGreaterThan(from);
        if (i > 0) expect(from).toBe(slices[i - 1]![1]);
        // A cut inside the range is a bucket's start: no bucket is split between two slices.
        if (i < slices.length - 1) expect(until % bucketMs).toBe(0);
      });
    });
  }

  it('reads about ROWS_PER_HISTORY_SLICE stored rows per slice: Last Week in 6, Last Year in 23', () => {
    const week = historicalRange(168, NOW_MS);
    expect(historicalSlices(week.fromMs, week.untilMs, week.bucketMs)).toHaveLength(6);
    const year = historicalRange(8760, NOW_MS);
    const yearSlices = historicalSlices(year.fromMs, year.untilMs, year.bucketMs);
    expect(yearSlices).toHaveLength(23);
    // 12-hour buckets from hourly rollups: 12 rows a bucket.
    expect(((yearSlices[1]![1] - yearSlices[1]![0]) / 3_600_000)).toBeLessThanOrEqual(ROWS_PER_HISTORY_SLICE);
  });
});
