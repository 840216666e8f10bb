import { describe, expect, it } from 'vitest';
import { describeWindow, windowAt } from '../../../server/devices/rules/schedule.ts';
import { localClockMs } from '../../../common/local-clock.ts';
import { inTimeZone, instants, wall } from '../../support/time-zone.ts';

/*
 * Schedule windows through the nights the clocks change (docs/decisions.md, "Clock changes"): a time
 * the clock skips is the moment it jumps, a time it repeats is its first occurrence. Walked minute by
 * minute from noon before to noon after, in zones north and south, with a one-hour and a half-hour shift.
 */

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

/** Where the window's state changes over [fromMs, toMs), minute by minute: the instant and the new state. */
function changes(schedule: { from: string; to: string }, fromMs: number, toMs: number) {
  const out: Array<{ at: string; kind: string }> = [];
  let last: string | null = null;
  for (const t of instants(fromMs, toMs)) {
    const state = windowAt(schedule, t, null);
    if (state.kind === 'unresolvable') throw new Error(state.why);
    expect(Number.isFinite(state.fromMs) && Number.isFinite(state.toMs)).toBe(true);
    if (state.kind !== last) out.push({ at: new Date(t).toISOString(), kind: state.kind });
    last = state.kind;
  }
  return out;
}

/** The transition nights of 2026: the zone, the local date, and the instant (UTC) the clock changes. */
const NIGHTS = [
  { zone: 'Europe/Amsterdam', name: 'spring forward', date: [2026, 3, 29], changeAt: '2026-03-29T01:00:00Z', shiftMin: 60 },
  { zone: 'Europe/Amsterdam', name: 'fall back', date: [2026, 10, 25], changeAt: '2026-10-25T01:00:00Z', shiftMin: -60 },
  { zone: 'America/New_York', name: 'spring forward', date: [2026, 3, 8], changeAt: '2026-03-08T07:00:00Z', shiftMin: 60 },
  { zone: 'America/New_York', name: 'fall back', date: [2026, 11, 1], changeAt: '2026-11-01T06:00:00Z', shiftMin: -60 },
  { zone: 'Australia/Sydney', name: 'fall back', date: [2026, 4, 5], changeAt: '2026-04-04T16:00:00Z', shiftMin: -60 },
  { zone: 'Australia/Sydney', name: 'spring forward', date: [2026, 10, 4], changeAt: '2026-10-03T16:00:00Z', shiftMin: 60 },
  { zone: 'Australia/Lord_Howe', name: 'fall back', date: [2026, 4, 5], changeAt: '2026-04-04T15:00:00Z', shiftMin: -30 },
  { zone: 'Australia/Lord_Howe', name: 'spring forward', date: [2026, 10, 4], changeAt: '2026-10-03T15:30:00Z', shiftMin: 30 },
] as const;

for (const night of NIGHTS) {
  describe(`${night.zone}, ${night.name} (${night.date.join('-')})`, () => {
    inTimeZone(night.zone);
    const [y, m, d] = night.date;
    const local = (h: number, min = 0, day: number = d) => localClockMs(new Date(y, m - 1, day), h, min);

    it('the zone changes its clock where this test says (the fixture is right)', () => {
      const change = utc(night.changeAt);
      expect(new Date(change - 1).getTimezoneOffset() - new Date(change).getTimezoneOffset()).toBe(night.shiftMin);
    });

    it('22:00-06:00 is inside all night and outside all day, entering and leaving once each', () => {
      const list = changes({ from: '22:00', to: '06:00' }, local(12, 0, d - 1), local(12, 0, d + 1));
      expect(list.map((c) => [wall(Date.parse(c.at)), c.kind])).toEqual([
        ['12:00', 'outside'],
        ['22:00', 'inside'],
        ['06:00', 'outside'],
        ['22:00', 'inside'],
        ['06:00', 'outside'],
      ]);
      // The night is as long as the clock says: an hour (or half an hour) shorter or longer.
      const nightMs = Date.parse(list[2]!.at) - Date.parse(list[1]!.at);
      expect(nightMs).toBe(8 * HOUR - night.shiftMin * 60_000);
    });

    /**
     * A local time 15 (or `minutes`) minutes into the changed span: skipped at spring forward (02:15
     * in Amsterdam), repeated at fall back (02:15 in Amsterdam, 01:15 in New York, 01:45 at Lord Howe).
     */
    const inChangedSpan = (minutes = 15) => {
      const change = utc(night.changeAt);
      const spanStart = night.shiftMin > 0 ? change - 60_000 : change;
      const [h, min] = wall(spanStart).split(':').map(Number) as [number, number];
      const total = h * 60 + min + (night.shiftMin > 0 ? 1 : 0) + minutes;
      return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
    };

    it('a window ending in the changed span ends once, when the clock jumps or at its first occurrence, and never comes back', () => {
      const schedule = { from: '22:00', to: inChangedSpan() };
      const list = changes(schedule, local(12, 0, d - 1), local(12, 0, d));
      expect(list.map((c) => c.kind)).toEqual(['outside', 'inside', 'outside']);
      const end = Date.parse(list[2]!.at);
      const change = utc(night.changeAt);
      if (night.shiftMin > 0) {
        // The time does not exist that night: the window ends when the clock jumps over it, and says so.
        expect(end).toBe(change);
        expect(describeWindow(schedule, windowAt(schedule, end - 60_000, null))).toBe(`schedule 22:00-${schedule.to} (${wall(change)}, clock change)`);
      } else {
        // It happens twice: the first one ends the window.
        expect(end).toBe(change + night.shiftMin * 60_000 + 15 * 60_000);
        expect(wall(end)).toBe(schedule.to);
      }
    });

    it('a window starting in the changed span starts once and holds to its end', () => {
      const schedule = { from: inChangedSpan(), to: '06:00' };
      const list = changes(schedule, local(12, 0, d - 1), local(12, 0, d));
      expect(list.map((c) => c.kind)).toEqual(['outside', 'inside', 'outside']);
      const start = Date.parse(list[1]!.at);
      const change = utc(night.changeAt);
      expect(start).toBe(night.shiftMin > 0 ? change : change + night.shiftMin * 60_000 + 15 * 60_000);
      expect(wall(Date.parse(list[2]!.at))).toBe('06:00');
    });

    it('a window within the changed span is empty when the clock skips it, and there once when it repeats', () => {
      const schedule = { from: inChangedSpan(5), to: inChangedSpan(20) };
      const list = changes(schedule, local(12, 0, d - 1), local(12, 0, d));
      if (night.shiftMin > 0) expect(list.map((c) => c.kind)).toEqual(['outside']);
      else {
        expect(list.map((c) => c.kind)).toEqual(['outside', 'inside', 'outside']);
        expect(Date.parse(list[2]!.at) - Date.parse(list[1]!.at)).toBe(15 * 60_000);
      }
    });
  });
}

describe('Europe/Amsterdam, spring forward: an end in the skipped hour', () => {
  inTimeZone('Europe/Amsterdam');

  it('02:30 that night is 03:00 CEST (01:00Z), not 03:30', () => {
    expect(new Date(localClockMs(new Date(2026, 2, 29), 2, 30)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(localClockMs(new Date(2026, 2, 29), 3, 15)).toISOString()).toBe('2026-03-29T01:15:00.000Z');
    // The repeated hour in October: the first 02:30 (CEST).
    expect(new Date(localClockMs(new Date(2026, 9, 25), 2, 30)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('a window 02:30-03:15 is 15 minutes that morning, not the whole day', () => {
    const schedule = { from: '02:30', to: '03:15' };
    expect(windowAt(schedule, utc('2026-03-29T11:00:00Z'), null).kind).toBe('outside');
    expect(windowAt(schedule, utc('2026-03-29T00:59:00Z'), null).kind).toBe('outside');
    expect(windowAt(schedule, utc('2026-03-29T01:00:00Z'), null).kind).toBe('inside');
    expect(windowAt(schedule, utc('2026-03-29T01:14:00Z'), null).kind).toBe('inside');
    expect(windowAt(schedule, utc('2026-03-29T01:15:00Z'), null).kind).toBe('outside');
  });

  it('says nothing about a clock change on an ordinary day', () => {
    const schedule = { from: '22:00', to: '02:30' };
    const at = utc('2026-03-30T00:00:00Z');
    expect(describeWindow(schedule, windowAt(schedule, at, null))).toBe('schedule 22:00-02:30');
  });
});
