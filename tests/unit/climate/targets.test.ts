import { describe, expect, it } from 'vitest';
import { getTimes } from 'suncalc';
import type { ClimateProgram } from '../../../server/contract/climate.ts';
import { curve, targetsAt } from '../../../server/climate/targets.ts';
import { validateProgram } from '../../../server/climate/validate.ts';
import { DomainError } from '../../../server/domain/errors.ts';

/** Local times on one day (the gateway's local zone, as programs are). */
const at = (h: number, m = 0, day = 10) => new Date(2026, 5, day, h, m).getTime();
const SITE = { latitude: 52.1, longitude: 5.1 };

// A day at 22 °C from sunrise+30, a night at 16 °C from 20:00, each reached over a one-hour ramp.
const program: ClimateProgram = {
  periods: [
    { start: 'sunrise+30', heatBelowC: 22, ventAboveC: 26, humidityAbovePct: 85, rampMinutes: 60 },
    { start: '20:00', heatBelowC: 16, ventAboveC: 20, rampMinutes: 60 },
  ],
};
const sunriseMs = getTimes(new Date(2026, 5, 10, 12), SITE.latitude, SITE.longitude).sunrise!.getTime();

describe('a program over a day and a night', () => {
  it('holds the night targets before the day period starts at sunrise+30', () => {
    const t = targetsAt(program, sunriseMs + 29 * 60_000, SITE);
    expect(t).toMatchObject({ period: 1, heatBelowC: 16, ventAboveC: 20, ramping: false });
    expect(t.nextChangeMs).toBe(sunriseMs + 30 * 60_000);
  });

  it('ramps linearly from the night to the day over the day period\'s 60 minutes, from sunrise+30', () => {
    expect(targetsAt(program, sunriseMs + 30 * 60_000, SITE)).toMatchObject({ period: 0, heatBelowC: 16, ventAboveC: 20, ramping: true });
    const half = targetsAt(program, sunriseMs + 60 * 60_000, SITE);
    expect(half).toMatchObject({ period: 0, heatBelowC: 19, ventAboveC: 23, ramping: true });
    expect(half.nextChangeMs).toBe(sunriseMs + 90 * 60_000);
    expect(targetsAt(program, sunriseMs + 90 * 60_000, SITE)).toMatchObject({ heatBelowC: 22, ventAboveC: 26, ramping: false, humidityAbovePct: 85 });
  });

  it('holds the day at noon and ramps down into the night from 20:00, past midnight it is night', () => {
    const noon = targetsAt(program, at(12), SITE);
    expect(noon).toMatchObject({ period: 0, heatBelowC: 22, ventAboveC: 26 });
    expect(noon.nextChangeMs).toBe(at(20));
    expect(targetsAt(program, at(20, 15), SITE)).toMatchObject({ period: 1, heatBelowC: 20.5, ventAboveC: 24.5, ramping: true });
    expect(targetsAt(program, at(2, 0, 11), SITE)).toMatchObject({ period: 1, heatBelowC: 16, ventAboveC: 20 });
  });

  it('holds the safe targets (the lowest heat and vent of the day) while the clock is not synchronised', () => {
    const t = targetsAt(program, at(12), SITE, false);
    expect(t).toMatchObject({ period: null, heatBelowC: 16, ventAboveC: 20 });
    expect(t.text).toMatch(/clock not synchronised: safe targets/);
  });

  it('draws the 24 h curve from midnight, night at the ends and day in the middle', () => {
    const points = curve(program, at(0), 24, SITE);
    expect(points).toHaveLength(24 * 12 + 1);
    expect(points[0]).toMatchObject({ heatBelowC: 16, ventAboveC: 20 });
    expect(points.find((p) => p.atMs === at(12))).toMatchObject({ heatBelowC: 22, ventAboveC: 26 });
  });

  it('changes with the crop: from day 15 the flowering stage\'s periods', () => {
    const withStages: ClimateProgram = {
      ...program,
      crop: { name: 'Tomatoes', startDate: '2026-05-27' },
      stages: [{ name: 'flowering', fromDay: 15, periods: [{ start: '06:00', heatBelowC: 18, ventAboveC: 24, rampMinutes: 0 }], photoperiodHours: 12 }],
    };
    // 27 May is day 1: 9 June is day 14, 10 June day 15.
    expect(targetsAt(withStages, at(12, 0, 9), SITE)).toMatchObject({ heatBelowC: 22, stage: null });
    const flowering = targetsAt(withStages, at(12, 0, 10), SITE);
    expect(flowering).toMatchObject({ heatBelowC: 18, ventAboveC: 24, stage: { name: 'flowering', day: 15 }, lightsOn: true });
    expect(targetsAt(withStages, at(19, 0, 10), SITE).lightsOn).toBe(false);
  });
});

describe('bad programs are refused naming the field', () => {
  const fieldOf = (p: ClimateProgram, site: typeof SITE | null = SITE) => {
    try {
      validateProgram(p, at(12), site);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      return (err as DomainError).field;
    }
  };
  const period = (start: string, heatBelowC = 16, ventAboveC = 20, rampMinutes = 0) => ({ start, heatBelowC, ventAboveC, rampMinutes });

  it('accepts the example program', () => expect(fieldOf(program)).toBeNull());
  it('periods out of order', () => expect(fieldOf({ periods: [period('20:00'), period('06:00')] })).toBe('periods.1.start'));
  it('two periods starting together', () => expect(fieldOf({ periods: [period('06:00'), period('06:00')] })).toBe('periods.1.start'));
  // In June sunrise+30 in Utrecht is ~05:50, in December ~09:15: after 08:00.
  it('a sun period that overtakes a clock period in another season', () => expect(fieldOf({ periods: [period('sunrise+30'), period('08:00')] })).toBe('periods.1.start'));
  it('a heat target at or above the vent target', () => expect(fieldOf({ periods: [period('06:00', 20, 20)] })).toBe('periods.0.heatBelowC'));
  it('a ramp longer than its period', () => expect(fieldOf({ periods: [period('06:00', 16, 20, 90), period('07:00')] })).toBe('periods.0.rampMinutes'));
  it('a sun time without a site', () => expect(fieldOf({ periods: [period('sunrise')] }, null)).toBe('periods.0.start'));
  it('stages without a crop', () => expect(fieldOf({ periods: [period('06:00')], stages: [{ name: 'veg', fromDay: 1, periods: [period('06:00')] }] })).toBe('crop'));
  it('a crop start that is no date', () => expect(fieldOf({ periods: [period('06:00')], crop: { name: 'x', startDate: '2026-02-30' } })).toBe('crop.startDate'));
  it('a crop start more than a year ahead or before 2000', () => {
    const crop = (startDate: string) => fieldOf({ periods: [period('06:00')], crop: { name: 'x', startDate } });
    expect(crop('2027-06-10')).toBeNull();
    expect(crop('2000-01-01')).toBeNull();
    for (const startDate of ['2027-06-11', '9999-12-31', '1999-12-31', '0001-01-01']) expect(crop(startDate)).toBe('crop.startDate');
  });
});
