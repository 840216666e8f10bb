import { describe, expect, it } from 'vitest';
import { inQuietHours } from '../../../../server/notifications/quiet-hours.ts';
import { inTimeZone, instants, wall } from '../../../support/time-zone.ts';

/*
 * Quiet hours through the nights the clocks change (docs/decisions.md, "Clock changes"). An alert in
 * quiet hours is not sent to that channel at all, so quiet hours that start again at the repeated
 * hour would swallow an alert a grower expects to hear.
 */

const utc = (iso: string) => Date.parse(iso);

/** Where quiet hours start or end over [fromMs, toMs), minute by minute: the local wall time and the state. */
function changes(quiet: { from: string; to: string }, fromMs: number, toMs: number): Array<[string, boolean]> {
  const out: Array<[string, boolean]> = [];
  let last: boolean | null = null;
  for (const t of instants(fromMs, toMs)) {
    const q = inQuietHours(quiet, t);
    if (q !== last) out.push([wall(t), q]);
    last = q;
  }
  return out;
}

describe('Europe/Amsterdam', () => {
  inTimeZone('Europe/Amsterdam');

  it('22:00-06:30 holds all night on both nights, ending at 06:30 on the clock', () => {
    for (const [from, to] of [
      ['2026-03-28T10:00:00Z', '2026-03-29T10:00:00Z'],
      ['2026-10-24T10:00:00Z', '2026-10-25T10:00:00Z'],
    ] as const) {
      expect(changes({ from: '22:00', to: '06:30' }, utc(from), utc(to)).slice(1)).toEqual([
        ['22:00', true],
        ['06:30', false],
      ]);
    }
  });

  it('an end in the repeated hour is the first one: quiet hours do not start again at the second 02:00', () => {
    expect(changes({ from: '22:00', to: '02:30' }, utc('2026-10-24T10:00:00Z'), utc('2026-10-25T10:00:00Z'))).toEqual([
      ['12:00', false],
      ['22:00', true],
      ['02:30', false],
    ]);
    // The alert at the second 02:15 (CET, 01:15Z) is sent.
    expect(inQuietHours({ from: '22:00', to: '02:30' }, utc('2026-10-25T01:15:00Z'))).toBe(false);
  });

  it('a start in the repeated hour is the first one: quiet hours do not stop for the second 02:00-02:30', () => {
    expect(changes({ from: '02:30', to: '06:00' }, utc('2026-10-24T10:00:00Z'), utc('2026-10-25T10:00:00Z'))).toEqual([
      ['12:00', false],
      ['02:30', true],
      ['06:00', false],
    ]);
  });

  it('an end in the skipped hour ends them when the clock jumps (03:00 CEST)', () => {
    const list = changes({ from: '22:00', to: '02:30' }, utc('2026-03-28T10:00:00Z'), utc('2026-03-29T10:00:00Z'));
    expect(list).toEqual([
      ['11:00', false],
      ['22:00', true],
      ['03:00', false],
    ]);
  });
});

for (const zone of ['America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe']) {
  describe(zone, () => {
    inTimeZone(zone);

    it('22:00-06:00 is quiet every night of the year and loud every day, changing once at each end', () => {
      // A whole year in 5-minute steps: 365 starts and 365 ends, every one at 22:00 or 06:00 on the clock.
      const start = new Date(2026, 0, 1, 12).getTime();
      const end = new Date(2027, 0, 1, 12).getTime();
      let last = false;
      let starts = 0;
      let ends = 0;
      for (const t of instants(start, end, 5 * 60_000)) {
        const q = inQuietHours({ from: '22:00', to: '06:00' }, t);
        if (q !== last) {
          expect(wall(t)).toBe(q ? '22:00' : '06:00');
          if (q) starts++;
          else ends++;
        }
        last = q;
      }
      expect([starts, ends]).toEqual([365, 365]);
    });
  });
}
