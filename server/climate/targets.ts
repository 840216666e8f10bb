import type { ClimatePeriod, ClimateProgram } from '../contract/climate.ts';
import type { Site } from '../devices/rules/schedule.ts';
import { periodsOn, placeDay, shiftDays, type PlacedPeriod } from './program-days.ts';

/** The targets of a program at one instant, and where they stand in the day. */
export interface ClimateTargets {
  heatBelowC: number;
  ventAboveC: number;
  humidityAbovePct: number | null;
  /** The period in force (ramping into it or holding it); null for the safe targets. */
  period: number | null;
  ramping: boolean;
  nextChangeMs: number | null;
  stage: { name: string; day: number } | null;
  /** The lights' photoperiod of the grow stage in force, from the first period's start; null when not set. */
  lightsOn: boolean | null;
  /** A grower's sentence for the control log and the Overview. */
  text: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const lerp = (a: number, b: number, f: number) => round2(a + (b - a) * f);

/**
 * The safe targets, used when the time of day is unknown (clock not synchronised, a sun event that
 * does not happen): heat to the lowest heat target of the day and vent above the lowest vent target,
 * so the crop never freezes nor cooks, whichever period it really is. Each period's heat target is
 * under its vent target, so the lowest heat is under the lowest vent.
 */
export function safeTargets(program: ClimateProgram, nowMs: number, why: string): ClimateTargets {
  const { periods, stage } = periodsOn(program, nowMs);
  const humidities = periods.map((p) => p.humidityAbovePct).filter((h): h is number => typeof h === 'number');
  const heatBelowC = Math.min(...periods.map((p) => p.heatBelowC));
  const ventAboveC = Math.min(...periods.map((p) => p.ventAboveC));
  // A stored program without periods (never through the API): no targets at all, not Infinity.
  if (!Number.isFinite(heatBelowC) || !Number.isFinite(ventAboveC)) throw new Error('climate program: no period to take safe targets from');
  return {
    heatBelowC,
    ventAboveC,
    humidityAbovePct: humidities.length > 0 ? Math.min(...humidities) : null,
    period: null,
    ramping: false,
    nextChangeMs: null,
    stage,
    lightsOn: null,
    text: `${why}: safe targets (heat below ${heatBelowC} °C, vent above ${ventAboveC} °C)`,
  };
}

/** Days already placed, by local midnight: a replay over a week computes each day's sun times once. */
export type PlacedDays = Map<number, ReturnType<typeof placeDay>>;

/**
 * Days placed before the first instant asked. A start lies within 17 h of its own day (a sun event
 * is on it, offsets are at most 999 minutes), so every period of the days three and two before today
 * started before today: at any instant the period in force and the one before it (a one-period
 * program's previous day) are placed, whatever the number of periods.
 */
const DAYS_BEFORE = 3;
/** Days placed after the last instant asked: a start of the second day after is more than 24 h ahead, so the next start is placed. */
const DAYS_AFTER = 2;

/** Every period start from DAYS_BEFORE days before `fromMs` to DAYS_AFTER days after `toMs`, in time order, or why not. */
function placedAround(program: ClimateProgram, fromMs: number, site: Site | null, toMs = fromMs, days?: PlacedDays): PlacedPeriod[] | string {
  const all: PlacedPeriod[] = [];
  for (let dayMs = shiftDays(fromMs, -DAYS_BEFORE); dayMs <= shiftDays(toMs, DAYS_AFTER); dayMs = shiftDays(dayMs, 1)) {
    let day = days?.get(dayMs);
    if (day === undefined) {
      day = placeDay(program, dayMs, site);
      days?.set(dayMs, day);
    }
    if (!Array.isArray(day)) return `period ${day.index + 1}: ${day.why}`;
    all.push(...day);
  }
  return all.sort((a, b) => a.startMs - b.startMs);
}

const describePeriod = (p: PlacedPeriod) => `period ${p.index + 1} (${p.period.start})`;

/**
 * The targets at `nowMs`: the period whose start is the latest not after now; over its first
 * rampMinutes they move linearly from the previous period's targets to its own.
 */
export function targetsAt(program: ClimateProgram, nowMs: number, site: Site | null, clockSynchronised = true, days?: PlacedDays): ClimateTargets {
  if (!clockSynchronised) return safeTargets(program, nowMs, 'clock not synchronised');
  const placed = placedAround(program, nowMs, site, nowMs, days);
  if (typeof placed === 'string') return safeTargets(program, nowMs, placed);
  return targetsIn(placed, nowMs);
}

/**
 * The targets at `nowMs` among periods already placed around it. Before the first period of a day the
 * previous day's last one is in force; with one period that is the same period, so its targets hold
 * all day: it does not ramp into itself, and the next change is another period's start (null if none
 * is placed).
 */
function targetsIn(placed: PlacedPeriod[], nowMs: number): ClimateTargets {
  const at = placed.findLastIndex((p) => p.startMs <= nowMs);
  // placedAround places DAYS_BEFORE days: never true, but a clear message if it ever were.
  if (at < 1) throw new Error(`climate targets: no period placed before ${new Date(nowMs).toISOString()}`);
  const current = placed[at]!;
  // The period in force before this one started. When the clocks go forward, two starts in the skipped
  // hour (02:00 and 02:30) both fall at the jump (localClockMs): the later one holds, ramping from the
  // period really in force before, not from the one that never held.
  let before = at - 1;
  while (before > 0 && placed[before]!.startMs === current.startMs) before--;
  const previous = placed[before]!;
  const next = placed.slice(at + 1).find((p) => !samePeriod(p, current)) ?? null;
  const rampMs = current.period.rampMinutes * 60_000;
  const ramping = rampMs > 0 && nowMs < current.startMs + rampMs && !samePeriod(previous, current);
  const f = ramping ? (nowMs - current.startMs) / rampMs : 1;
  const targets = blend(previous.period, current.period, f);
  const photoperiod = current.photoperiodHours;
  const dayStart = placed.filter((p) => p.index === 0 && p.startMs <= nowMs).at(-1);
  const lightsOn = photoperiod === null || !dayStart ? null : nowMs < dayStart.startMs + photoperiod * 3_600_000;
  const where = ramping ? `ramping into ${describePeriod(current)}, ${Math.round(f * 100)} %` : describePeriod(current);
  return {
    ...targets,
    period: current.index,
    ramping,
    nextChangeMs: ramping ? current.startMs + rampMs : (next?.startMs ?? null),
    stage: current.stage,
    lightsOn,
    text: `${current.stage ? `${current.stage.name}, day ${current.stage.day}: ` : ''}${where}: heat below ${targets.heatBelowC} °C, vent above ${targets.ventAboveC} °C`,
  };
}

/** Whether a start changes nothing: the same period of the same stage with the same targets (a one-period program's next day). */
function samePeriod(a: PlacedPeriod, b: PlacedPeriod): boolean {
  return (
    a.index === b.index &&
    a.stage?.name === b.stage?.name &&
    a.period.heatBelowC === b.period.heatBelowC &&
    a.period.ventAboveC === b.period.ventAboveC &&
    (a.period.humidityAbovePct ?? null) === (b.period.humidityAbovePct ?? null)
  );
}

function blend(from: ClimatePeriod, to: ClimatePeriod, f: number): Pick<ClimateTargets, 'heatBelowC' | 'ventAboveC' | 'humidityAbovePct'> {
  const fromH = from.humidityAbovePct ?? null;
  const toH = to.humidityAbovePct ?? null;
  return {
    heatBelowC: lerp(from.heatBelowC, to.heatBelowC, f),
    ventAboveC: lerp(from.ventAboveC, to.ventAboveC, f),
    humidityAbovePct: fromH !== null && toH !== null ? lerp(fromH, toH, f) : toH,
  };
}

/** The curve from `fromMs` over `hours`, one point every `stepMs` (the editor's chart). */
export function curve(program: ClimateProgram, fromMs: number, hours: number, site: Site | null, stepMs = 5 * 60_000): Array<{ atMs: number; heatBelowC: number; ventAboveC: number }> {
  const out: Array<{ atMs: number; heatBelowC: number; ventAboveC: number }> = [];
  const endMs = fromMs + hours * 3_600_000;
  // The sun times of each day are computed once for the whole curve, not once per point.
  const placed = placedAround(program, fromMs, site, endMs);
  for (let t = fromMs; t <= endMs; t += stepMs) {
    const target = typeof placed === 'string' ? safeTargets(program, t, placed) : targetsIn(placed, t);
    out.push({ atMs: t, heatBelowC: target.heatBelowC, ventAboveC: target.ventAboveC });
  }
  return out;
}
