import { describe, expect, it } from 'vitest';
import { getTimes } from 'suncalc';
import type { ClimatePeriod, ClimateProgram } from '../../../server/contract/climate.ts';
import { curve, targetsAt } from '../../../server/climate/targets.ts';

/*
 * Before the first period of a day the previous day's last period is in force, with one period as
 * with several (docs/climate.md): the targets exist at every minute of the day, ramps cross midnight.
 */
const at = (h: number, m = 0, day = 10) => new Date(2026, 5, day, h, m).getTime();
const SITE = { latitude: 52.1, longitude: 5.1 };
const period = (start: string, heatBelowC: number, ventAboveC: number, rampMinutes = 0): ClimatePeriod => ({ start, heatBelowC, ventAboveC, rampMinutes });
const everyFiveMinutes = (day = 10) => Array.from({ length: 24 * 12 }, (_, i) => at(0, i * 5, day));

describe('one period', () => {
  const one: ClimateProgram = { periods: [period('06:00', 15, 25)] };

  it('holds its targets at every minute of the day, before its start, at it and after it', () => {
    for (const t of [at(0, 5), at(0), at(5, 59), at(6), at(12), at(23, 59)]) {
      expect(targetsAt(one, t, null)).toMatchObject({ period: 0, heatBelowC: 15, ventAboveC: 25, ramping: false });
    }
  });

  it('has no next change: the same period starting again changes nothing', () => {
    expect(targetsAt(one, at(0, 5), null).nextChangeMs).toBeNull();
    expect(targetsAt(one, at(6), null).nextChangeMs).toBeNull();
  });

  it('does not ramp into itself', () => {
    const ramped: ClimateProgram = { periods: [period('06:00', 15, 25, 120)] };
    const t = targetsAt(ramped, at(6, 30), null);
    expect(t).toMatchObject({ period: 0, heatBelowC: 15, ventAboveC: 25, ramping: false });
    expect(t.text).not.toMatch(/ramping/);
  });

  it('at 23:59 holds before and after its start', () => {
    const late: ClimateProgram = { periods: [period('23:59', 15, 25)] };
    for (const t of [at(0), at(0, 5), at(23, 58), at(23, 59)]) expect(targetsAt(late, t, null)).toMatchObject({ period: 0, heatBelowC: 15 });
  });

  it('at 00:00 holds from its start', () => {
    const midnight: ClimateProgram = { periods: [period('00:00', 15, 25)] };
    expect(targetsAt(midnight, at(0), null)).toMatchObject({ period: 0, heatBelowC: 15 });
  });

  it('draws a flat curve over the 24 hours from local midnight', () => {
    const points = curve(one, at(0), 24, null);
    expect(points).toHaveLength(24 * 12 + 1);
    expect(new Set(points.map((p) => `${p.heatBelowC}/${p.ventAboveC}`))).toEqual(new Set(['15/25']));
  });

  it('from sunrise holds all day, before sunrise too', () => {
    const sun: ClimateProgram = { periods: [period('sunrise+30', 15, 25, 60)] };
    for (const t of everyFiveMinutes()) expect(targetsAt(sun, t, SITE)).toMatchObject({ period: 0, heatBelowC: 15, ventAboveC: 25, ramping: false });
  });
});

describe('two periods', () => {
  // Day from 06:00 (ramp 60 min), night from 22:00 (ramp 120 min: it crosses midnight).
  const two: ClimateProgram = { periods: [period('06:00', 20, 26, 60), period('22:00', 14, 20, 120)] };

  it('before the first period: the night, still ramping from 22:00 across midnight', () => {
    // 23:30 is 90 of 120 minutes into the night's ramp: 20 → 14 is at 15.5, 26 → 20 at 21.5.
    expect(targetsAt(two, at(23, 30, 9), null)).toMatchObject({ period: 1, heatBelowC: 15.5, ventAboveC: 21.5, ramping: true });
    const pastMidnight = targetsAt(two, at(0, 0), null);
    expect(pastMidnight).toMatchObject({ period: 1, heatBelowC: 14, ventAboveC: 20, ramping: false });
    expect(pastMidnight.nextChangeMs).toBe(at(6));
    expect(targetsAt(two, at(0, 5), null)).toMatchObject({ period: 1, heatBelowC: 14, ventAboveC: 20 });
  });

  it('a ramp that crosses midnight goes on after it', () => {
    const late: ClimateProgram = { periods: [period('06:00', 20, 26), period('23:00', 14, 20, 120)] };
    // 00:00 is 60 of 120 minutes into the ramp from 20/26 to 14/20.
    const t = targetsAt(late, at(0), null);
    expect(t).toMatchObject({ period: 1, heatBelowC: 17, ventAboveC: 23, ramping: true });
    expect(t.nextChangeMs).toBe(at(1));
  });

  it('exactly at the first period: the ramp begins from the night\'s targets', () => {
    expect(targetsAt(two, at(6), null)).toMatchObject({ period: 0, heatBelowC: 14, ventAboveC: 20, ramping: true });
    expect(targetsAt(two, at(6, 30), null)).toMatchObject({ period: 0, heatBelowC: 17, ventAboveC: 23 });
    expect(targetsAt(two, at(7), null)).toMatchObject({ period: 0, heatBelowC: 20, ventAboveC: 26, ramping: false });
  });

  it('a curve from local midnight starts in the night', () => {
    const points = curve(two, at(0), 24, null);
    expect(points[0]).toMatchObject({ heatBelowC: 14, ventAboveC: 20 });
    expect(points.find((p) => p.atMs === at(12))).toMatchObject({ heatBelowC: 20, ventAboveC: 26 });
  });
});

describe('three periods', () => {
  const three: ClimateProgram = { periods: [period('sunrise', 18, 24, 30), period('12:00', 22, 28, 60), period('sunset', 15, 21, 90)] };
  const times = getTimes(new Date(2026, 5, 10, 12), SITE.latitude, SITE.longitude);
  const sunriseMs = times.sunrise!.getTime();
  const sunsetMs = times.sunset!.getTime();

  it('before sunrise: the previous evening\'s period, its ramp over', () => {
    expect(targetsAt(three, at(0, 5), SITE)).toMatchObject({ period: 2, heatBelowC: 15, ventAboveC: 21, ramping: false });
    expect(targetsAt(three, sunriseMs - 60_000, SITE).nextChangeMs).toBe(sunriseMs);
  });

  it('at sunrise the ramp from the evening begins, at noon the next', () => {
    expect(targetsAt(three, sunriseMs, SITE)).toMatchObject({ period: 0, heatBelowC: 15, ventAboveC: 21, ramping: true });
    expect(targetsAt(three, sunriseMs + 15 * 60_000, SITE)).toMatchObject({ period: 0, heatBelowC: 16.5, ventAboveC: 22.5 });
    expect(targetsAt(three, at(12, 30), SITE)).toMatchObject({ period: 1, heatBelowC: 20, ventAboveC: 26, ramping: true });
    expect(targetsAt(three, sunsetMs + 90 * 60_000, SITE)).toMatchObject({ period: 2, heatBelowC: 15, ventAboveC: 21, ramping: false });
  });

  it('has targets at every five minutes of the day', () => {
    for (const t of everyFiveMinutes()) expect(targetsAt(three, t, SITE).period).not.toBeNull();
  });
});

describe('a one-period grow stage after a two-period base program', () => {
  const staged: ClimateProgram = {
    periods: [period('06:00', 20, 26), period('20:00', 14, 20)],
    crop: { name: 'Tomatoes', startDate: '2026-06-01' },
    stages: [{ name: 'flowering', fromDay: 10, periods: [period('08:00', 18, 24, 60)] }],
  };

  it('the first stage day holds the base night until the stage period starts, then ramps from it', () => {
    // 10 June is day 10.
    expect(targetsAt(staged, at(7, 0), null)).toMatchObject({ period: 1, heatBelowC: 14, stage: null });
    expect(targetsAt(staged, at(8, 30), null)).toMatchObject({ period: 0, heatBelowC: 16, ventAboveC: 22, ramping: true, stage: { name: 'flowering', day: 10 } });
  });

  it('the next day holds the stage period all day, no ramp into itself', () => {
    expect(targetsAt(staged, at(0, 5, 11), null)).toMatchObject({ period: 0, heatBelowC: 18, ventAboveC: 24 });
    expect(targetsAt(staged, at(8, 30, 11), null)).toMatchObject({ period: 0, heatBelowC: 18, ramping: false });
  });
});
