import { describe, expect, it } from 'vitest';
import type { ClimatePeriod, ClimateProgram } from '../../../server/contract/climate.ts';
import { curve, targetsAt, type ClimateTargets } from '../../../server/climate/targets.ts';
import { cropDay } from '../../../server/climate/program-days.ts';
import { validateProgram } from '../../../server/climate/validate.ts';
import { inTimeZone, instants, wall } from '../../support/time-zone.ts';

/*
 * Climate programs through the nights the clocks change (docs/decisions.md, "Clock changes"): each
 * period starts once a day, a ramp runs once and never goes back, the targets exist at every minute.
 */

const utc = (iso: string) => Date.parse(iso);
const period = (start: string, heatBelowC: number, ventAboveC: number, rampMinutes = 0): ClimatePeriod => ({ start, heatBelowC, ventAboveC, rampMinutes });

// A night with its periods around the changed hour, and a day.
const program: ClimateProgram = {
  periods: [
    period('01:30', 12, 20, 30),
    period('02:00', 14, 22),
    period('02:30', 16, 24, 30),
    period('03:15', 17, 25, 15),
    period('07:00', 20, 27, 60),
    period('20:00', 15, 23, 60),
  ],
};

const NIGHTS = [
  { zone: 'Europe/Amsterdam', name: 'spring forward', noonBefore: '2026-03-28T11:00:00Z', change: '2026-03-29T01:00:00Z', shiftMin: 60 },
  { zone: 'Europe/Amsterdam', name: 'fall back', noonBefore: '2026-10-24T10:00:00Z', change: '2026-10-25T01:00:00Z', shiftMin: -60 },
  { zone: 'America/New_York', name: 'spring forward', noonBefore: '2026-03-07T17:00:00Z', change: '2026-03-08T07:00:00Z', shiftMin: 60 },
  { zone: 'America/New_York', name: 'fall back', noonBefore: '2026-10-31T16:00:00Z', change: '2026-11-01T06:00:00Z', shiftMin: -60 },
  { zone: 'Australia/Sydney', name: 'fall back', noonBefore: '2026-04-04T01:00:00Z', change: '2026-04-04T16:00:00Z', shiftMin: -60 },
  { zone: 'Australia/Sydney', name: 'spring forward', noonBefore: '2026-10-03T02:00:00Z', change: '2026-10-03T16:00:00Z', shiftMin: 60 },
  { zone: 'Australia/Lord_Howe', name: 'fall back', noonBefore: '2026-04-04T01:00:00Z', change: '2026-04-04T15:00:00Z', shiftMin: -30 },
  { zone: 'Australia/Lord_Howe', name: 'spring forward', noonBefore: '2026-10-03T01:30:00Z', change: '2026-10-03T15:30:00Z', shiftMin: 30 },
] as const;

// A night whose ramp runs across the changed hour.
const longRamp: ClimateProgram = { periods: [period('00:30', 12, 20, 180), period('07:00', 20, 27, 60), period('20:00', 15, 23, 60)] };

/** The targets every minute over 48 hours from `fromMs`. */
function walk(fromMs: number, of = program): Array<{ t: number; x: ClimateTargets }> {
  return [...instants(fromMs, fromMs + 48 * 3_600_000)].map((t) => ({ t, x: targetsAt(of, t, null) }));
}

for (const night of NIGHTS) {
  describe(`${night.zone}, ${night.name}`, () => {
    inTimeZone(night.zone);

    it('has targets at every minute, none NaN, and a next change ahead', () => {
      for (const { t, x } of walk(utc(night.noonBefore))) {
        expect(Number.isFinite(x.heatBelowC) && Number.isFinite(x.ventAboveC), new Date(t).toISOString()).toBe(true);
        expect(x.period).not.toBeNull();
        if (x.nextChangeMs !== null) expect(x.nextChangeMs).toBeGreaterThan(t);
      }
    });

    it('starts each period once a day, in the order of the day', () => {
      const entered: Array<[string, number]> = [];
      let last: number | null = null;
      for (const { t, x } of walk(utc(night.noonBefore))) {
        if (x.period !== last) entered.push([new Date(t).toISOString(), x.period!]);
        last = x.period;
      }
      const order = entered.map(([, p]) => p);
      if (night.shiftMin > 0) {
        // 02:00 (and at Lord Howe 02:15's half hour) is skipped: 02:00's and 02:30's starts are both
        // the jump, where 02:30's period takes over; 02:00's has no time that night.
        expect(order).toEqual([4, 5, 0, 2, 3, 4, 5, 0, 1, 2, 3, 4]);
        expect(entered[3]![0]).toBe(new Date(utc(night.change)).toISOString());
      } else {
        expect(order).toEqual([4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4]);
      }
      // Every other start at its clock time (a repeated one at its first occurrence: once).
      for (const [at, p] of entered.slice(1)) {
        if (at !== new Date(utc(night.change)).toISOString() || night.shiftMin < 0) expect(wall(Date.parse(at))).toBe(program.periods[p]!.start);
      }
    });

    it('ramps once into each ramped period, moving only towards its targets', () => {
      for (const [of, ramps] of [
        // Two days of 01:30, 02:30, 03:15, 07:00 and 20:00 ramps (02:00's period has none).
        [program, 10],
        // Two days of 00:30 (across the change), 07:00 and 20:00 ramps.
        [longRamp, 6],
      ] as const) {
        expect(rampsIn(of)).toBe(ramps);
      }
    });

    it('a ramp across the change takes its minutes of real time, not of the clock', () => {
      const startMs = walk(utc(night.noonBefore), longRamp).find(({ x }) => x.period === 0 && x.ramping)!;
      expect(startMs.x.nextChangeMs! - startMs.t).toBe(180 * 60_000);
    });

    function rampsIn(of: ClimateProgram): number {
      let rampsStarted = 0;
      let prev: ClimateTargets | null = null;
      for (const { t, x } of walk(utc(night.noonBefore), of)) {
        if (x.ramping && !(prev?.ramping && prev.period === x.period)) rampsStarted++;
        if (prev && x.ramping && prev.ramping && prev.period === x.period) {
          const target = of.periods[x.period!]!;
          // Never further from the period's target than a minute before: no jump back, no second run.
          expect(Math.abs(target.heatBelowC - x.heatBelowC), `${new Date(t).toISOString()} (${wall(t)})`).toBeLessThanOrEqual(Math.abs(target.heatBelowC - prev.heatBelowC));
        }
        prev = x;
      }
      return rampsStarted;
    }

    it('the curve over the night has a point every 5 minutes, none NaN', () => {
      const points = curve(program, utc(night.noonBefore), 48, null);
      expect(points).toHaveLength(48 * 12 + 1);
      for (const p of points) expect(Number.isFinite(p.heatBelowC) && Number.isFinite(p.ventAboveC)).toBe(true);
    });

    it('a crop day changes once, at local midnight, whatever the length of the day', () => {
      const crop: ClimateProgram = { ...program, crop: { name: 'Tomatoes', startDate: '2026-01-01' } };
      let last: number | null = null;
      for (const t of instants(utc(night.noonBefore) - 2 * 86_400_000, utc(night.noonBefore) + 3 * 86_400_000, 15 * 60_000)) {
        const day = cropDay(crop, t)!;
        if (last !== null && day !== last) {
          expect(day).toBe(last + 1);
          expect(wall(t)).toBe('00:00');
        }
        last = day;
      }
    });
  });
}

describe('Europe/Amsterdam, spring forward: periods in the skipped hour', () => {
  inTimeZone('Europe/Amsterdam');

  it('a period at 02:30 starts at the jump (03:00 CEST, 01:00Z), ramping from the period really in force before', () => {
    const x = targetsAt(program, utc('2026-03-29T01:00:00Z'), null);
    // 01:30's period (12 °C) held until the jump: 02:30's ramp starts from it, not from 02:00's 14 °C.
    expect(x).toMatchObject({ period: 2, ramping: true, heatBelowC: 12, ventAboveC: 20 });
    // 03:15's period then ramps from 02:30's targets, as on any day; 02:30's ramp is cut short that night.
    expect(targetsAt(program, utc('2026-03-29T01:15:00Z'), null)).toMatchObject({ period: 3, ramping: true, heatBelowC: 16 });
  });

  it('02:30 stays before 03:15', () => {
    const simple: ClimateProgram = { periods: [period('02:30', 16, 24), period('03:15', 17, 25), period('12:00', 20, 27)] };
    expect(targetsAt(simple, utc('2026-03-29T01:05:00Z'), null).period).toBe(0);
    expect(targetsAt(simple, utc('2026-03-29T01:20:00Z'), null).period).toBe(1);
    expect(targetsAt(simple, utc('2026-03-29T01:20:00Z'), null).nextChangeMs).toBe(utc('2026-03-29T10:00:00Z'));
  });

  it('a program with periods in the skipped hour can be saved on that day, and a wrong order is still refused', () => {
    const today = utc('2026-03-29T10:00:00Z');
    expect(() => validateProgram(program, today, null)).not.toThrow();
    expect(() => validateProgram({ periods: [period('02:30', 16, 24), period('03:15', 17, 25)] }, today, null)).not.toThrow();
    expect(() => validateProgram({ periods: [period('02:30', 16, 24), period('02:00', 17, 25)] }, today, null)).toThrow(/periods\.1\.start/);
    // On the day the clocks go back as well.
    expect(() => validateProgram(program, utc('2026-10-25T10:00:00Z'), null)).not.toThrow();
  });
});
