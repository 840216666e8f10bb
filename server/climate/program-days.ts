import type { ClimatePeriod, ClimateProgram, GrowStage } from '../contract/climate.ts';
import { resolveTime, type Site } from '../devices/rules/schedule.ts';

/** One period placed on a local day: its index in that day's list and when it starts (epoch ms). */
export interface PlacedPeriod {
  index: number;
  period: ClimatePeriod;
  startMs: number;
  /** The grow stage whose periods these are, or null for the base program. */
  stage: { name: string; day: number } | null;
  photoperiodHours: number | null;
}

export const DAY_MS = 86_400_000;

/*
 * Local dates through the Date setters, not `new Date(y, m, d)`: the constructor reads a year under 100
 * as 1900 + year, the setters take every year as it is. Both are DST-correct.
 */

/** Local midnight of the day that contains `ms`. */
export function localMidnight(ms: number): number {
  return new Date(ms).setHours(0, 0, 0, 0);
}

/** The local midnight `days` days after the one of `ms` (not 24 h steps: a DST day has 23 or 25). */
export function shiftDays(ms: number, days: number): number {
  const d = new Date(ms);
  d.setDate(d.getDate() + days);
  return d.setHours(0, 0, 0, 0);
}

/** Local midnight of a calendar date (`month` 1-12); an impossible date rolls over (30 February is 2 March). */
export function localDate(year: number, month: number, day: number): Date {
  const d = new Date(0);
  d.setFullYear(year, month - 1, day);
  d.setHours(0, 0, 0, 0);
  return d;
}

/** Day of the crop on the local day of `ms`: its start date is day 1; null before it started or without a crop. */
export function cropDay(program: ClimateProgram, ms: number): number | null {
  if (!program.crop) return null;
  const [y, m, d] = program.crop.startDate.split('-').map(Number) as [number, number, number];
  const start = localDate(y, m, d).getTime();
  const day = Math.round((localMidnight(ms) - start) / DAY_MS) + 1;
  return day >= 1 ? day : null;
}

/** The grow stage in force on the local day of `ms` (the last whose fromDay has come), or null. */
export function stageOn(program: ClimateProgram, ms: number): { stage: GrowStage; day: number } | null {
  const day = cropDay(program, ms);
  if (day === null || !program.stages?.length) return null;
  let found: GrowStage | null = null;
  for (const stage of [...program.stages].sort((a, b) => a.fromDay - b.fromDay)) if (stage.fromDay <= day) found = stage;
  return found ? { stage: found, day } : null;
}

/** The periods in force on the local day of `ms`: the grow stage's, else the base program's. */
export function periodsOn(program: ClimateProgram, ms: number): { periods: ClimatePeriod[]; stage: PlacedPeriod['stage']; photoperiodHours: number | null } {
  const inForce = stageOn(program, ms);
  if (inForce) return { periods: inForce.stage.periods, stage: { name: inForce.stage.name, day: inForce.day }, photoperiodHours: inForce.stage.photoperiodHours ?? null };
  return { periods: program.periods, stage: null, photoperiodHours: null };
}

/**
 * The periods of one local day with their start times, in the order given. A start that cannot be
 * resolved (a sun event without a site, no sunrise at the pole) is answered as the reason text.
 */
export function placeDay(program: ClimateProgram, dayMs: number, site: Site | null): PlacedPeriod[] | { index: number; why: string } {
  const { periods, stage, photoperiodHours } = periodsOn(program, dayMs);
  const placed: PlacedPeriod[] = [];
  for (const [index, period] of periods.entries()) {
    const startMs = resolveTime(period.start, dayMs, site);
    if (typeof startMs === 'string') return { index, why: startMs };
    placed.push({ index, period, startMs, stage, photoperiodHours });
  }
  return placed;
}
