import { getTimes } from 'suncalc';
import type { Logger } from 'pino';
import type { Clock } from '../../common/clock.ts';
import type { ClimateCurvePoint, ClimateNow, ClimateProgram, WindowSafePosition } from '../contract/climate.ts';
import type { Site } from '../devices/rules/schedule.ts';
import { invalid } from '../domain/errors.ts';
import { FailureLog } from '../domain/failure-log.ts';
import type { EventBus } from '../events/bus.ts';
import type { ClimateProgramRepo } from './program-repo.ts';
import { curve, safeTargets, targetsAt, type ClimateTargets } from './targets.ts';
import { validateProgram } from './validate.ts';

export interface ClimateServiceDeps {
  repo: ClimateProgramRepo;
  greenhouseId: string;
  clock: Clock;
  bus: EventBus;
  /** systemSettings.site now (sun events). */
  site: () => Site | null;
  /** False until the wall clock is synchronised: the program then holds its safe targets. */
  clockSynchronised: () => boolean;
  logger: Logger;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The range a curve may start in (docs/climate.md): far wider than a grower looks, narrow enough for plain date maths. */
export const CURVE_FROM_MIN_MS = Date.UTC(2000, 0, 1);
export const CURVE_FROM_MAX_MS = Date.UTC(2100, 0, 1);

/** The greenhouse's climate program: stored, validated, and asked for its targets at any time. */
export class ClimateService {
  #cached: ClimateProgram | null | undefined;
  readonly #failures: FailureLog;

  constructor(private readonly deps: ClimateServiceDeps) {
    this.#failures = new FailureLog(deps.logger);
  }

  program(): ClimateProgram | null {
    if (this.#cached === undefined) this.#cached = this.deps.repo.get(this.deps.greenhouseId);
    return this.#cached;
  }

  /** Validates (400 naming the field, nothing stored) and stores the program; devices act on it at once. */
  put(program: ClimateProgram): ClimateProgram {
    const { clock, site, greenhouseId } = this.deps;
    validateProgram(program, clock.now(), site());
    const stored: ClimateProgram = { ...program, windowSafePosition: program.windowSafePosition ?? 'closed', crop: program.crop ?? null, stages: program.stages ?? [] };
    this.deps.repo.put(greenhouseId, stored, clock.now());
    this.#cached = stored;
    this.deps.bus.emit('climateProgramChanged', { greenhouseId });
    return stored;
  }

  /** Where a roof window following the program goes when its air temperature is lost (a setting of the program). */
  windowSafePosition(): WindowSafePosition {
    return this.program()?.windowSafePosition ?? 'closed';
  }

  /**
   * The targets now, or null without a program. Read by the rule runner at every evaluation. Should
   * the time of day's targets fail to compute, the safe targets hold (docs/climate.md), logged once;
   * a program without even those throws.
   */
  targetsNow(nowMs = this.deps.clock.now()): ClimateTargets | null {
    const program = this.program();
    if (!program) return null;
    try {
      const targets = targetsAt(program, nowMs, this.deps.site(), this.deps.clockSynchronised());
      this.#failures.worked('targets', 'climate targets computed again');
      return targets;
    } catch (err) {
      this.#failures.failed('targets', err, 'climate targets could not be computed: holding the safe targets');
      return safeTargets(program, nowMs, 'targets could not be computed');
    }
  }

  now(): ClimateNow {
    const nowMs = this.deps.clock.now();
    const synchronised = this.deps.clockSynchronised();
    const targets = this.targetsNow(nowMs);
    const site = this.deps.site();
    const times = site && synchronised ? getTimes(new Date(new Date(nowMs).setHours(12, 0, 0, 0)), site.latitude, site.longitude) : null;
    const valid = (d: Date | null | undefined) => (d && !Number.isNaN(d.getTime()) ? d.toISOString() : null);
    return {
      period: targets?.period ?? null,
      heatBelowC: targets?.heatBelowC ?? null,
      ventAboveC: targets?.ventAboveC ?? null,
      humidityAbovePct: targets?.humidityAbovePct ?? null,
      nextChangeAt: iso(targets?.nextChangeMs ?? null),
      ramping: targets?.ramping ?? false,
      clockSynchronised: synchronised,
      stage: targets?.stage ?? null,
      sun: times ? { sunrise: valid(times.sunrise), sunset: valid(times.sunset) } : null,
      text: targets?.text ?? 'no climate program: devices follow their own rules',
    };
  }

  /** The curve from `fromMs` (default now) over `hours`; empty without a program. `from` out of range: 400 naming it. */
  curve(hours: number, fromMs = this.deps.clock.now()): ClimateCurvePoint[] {
    if (!(fromMs >= CURVE_FROM_MIN_MS && fromMs <= CURVE_FROM_MAX_MS)) {
      throw invalid(`from must be a time from ${iso(CURVE_FROM_MIN_MS)} to ${iso(CURVE_FROM_MAX_MS)}`, 'from');
    }
    const program = this.program();
    if (!program) return [];
    // About 290 points whatever the range (5 minutes apart for a day, 35 for a week): a week's curve
    // stays a few milliseconds of a Pi core's time, and a chart cannot show more.
    const stepMs = Math.ceil(hours / 24) * 5 * 60_000;
    return curve(program, fromMs, hours, this.deps.site(), stepMs).map((p) => ({ at: new Date(p.atMs).toISOString(), heatBelowC: p.heatBelowC, ventAboveC: p.ventAboveC }));
  }
}
