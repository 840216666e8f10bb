import { describe, expect, it } from 'vitest';
import { timeAxisRange } from '../../../web/src/screens/sensors/chart-range.ts';

const NOW_S = 1_790_000_000;
const DAY_S = 86_400;

describe('timeAxisRange', () => {
  it('draws Last Year of a 40-day-old installation from its first reading, not as a sliver', () => {
    const first = NOW_S - 40 * DAY_S;
    expect(timeAxisRange(8760, first, NOW_S)).toEqual([first, NOW_S]);
  });

  it('keeps the whole range once the data covers it, and for ranges up to a month', () => {
    expect(timeAxisRange(8760, NOW_S - 400 * DAY_S, NOW_S)).toEqual([NOW_S - 8760 * 3600, NOW_S]);
    expect(timeAxisRange(168, NOW_S - 2 * DAY_S, NOW_S)).toEqual([NOW_S - 168 * 3600, NOW_S]);
    expect(timeAxisRange(720, NOW_S - 2 * DAY_S, NOW_S)).toEqual([NOW_S - 720 * 3600, NOW_S]);
  });

  it('never narrows below a week, and without data shows the whole range', () => {
    expect(timeAxisRange(8760, NOW_S - 3600, NOW_S)).toEqual([NOW_S - 7 * DAY_S, NOW_S]);
    expect(timeAxisRange(8760, null, NOW_S)).toEqual([NOW_S - 8760 * 3600, NOW_S]);
  });
});
