import type { IrrigationProgram } from '../../contract/device.ts';
import type { SensorField, SensorSnapshot } from '../../contract/reading.ts';
import { lossOf } from '../rules/engine.ts';
import { describeWindow, windowAt, type Site } from '../rules/schedule.ts';
import { IDLE, stepProgram, type CycleState } from './program.ts';
import { localDayStartMs } from './water-days.ts';

/** One switch the program asks for in a replay. */
export interface ReplaySwitch {
  atMs: number;
  on: boolean;
  reason: string;
}

/**
 * The irrigation program replayed over recorded history for the rule preview: the same state machine
 * (program.ts) the live runner drives, evaluated at every recorded tick and at each pulse's and soak's
 * end (where the live runner's timer fires). Two differences, both because the recorded soil never got
 * this water: a cycle that ends without effect is counted (`noEffectCycles`) instead of pausing the
 * rest of the replay, and the day budget counts only the replayed pulses.
 */
export class IrrigationReplay {
  #state: CycleState = { ...IDLE };
  #wakeAtMs: number | null = null;
  #on = false;
  #onSinceMs = 0;
  /** Replayed run time per local day start. */
  readonly #usedByDay = new Map<number, number>();
  noEffectCycles = 0;

  constructor(
    private readonly options: {
      program: IrrigationProgram;
      tankLowLevelCm: number;
      site: Site | null;
      initialOn: boolean;
      fromMs: number;
    },
  ) {
    this.#on = options.initialOn;
    this.#onSinceMs = options.fromMs;
  }

  /** The switches due up to and at `nowMs`: pending pulse or soak ends first, then the tick itself. */
  evaluate(nowMs: number, snapshot: SensorSnapshot, faulted: ReadonlySet<SensorField>): ReplaySwitch[] {
    const out: ReplaySwitch[] = [];
    while (this.#wakeAtMs !== null && this.#wakeAtMs < nowMs) {
      const at = this.#wakeAtMs;
      this.#wakeAtMs = null;
      this.#step(at, snapshot, faulted, out);
    }
    this.#step(nowMs, snapshot, faulted, out);
    return out;
  }

  /** The pulse or soak ends still due before `toMs` (the window closes). */
  finish(toMs: number, snapshot: SensorSnapshot, faulted: ReadonlySet<SensorField>): ReplaySwitch[] {
    const out: ReplaySwitch[] = [];
    while (this.#wakeAtMs !== null && this.#wakeAtMs <= toMs) {
      const at = this.#wakeAtMs;
      this.#wakeAtMs = null;
      this.#step(at, snapshot, faulted, out);
    }
    return out;
  }

  #step(nowMs: number, snapshot: SensorSnapshot, faulted: ReadonlySet<SensorField>, out: ReplaySwitch[]): void {
    const { program } = this.options;
    const sense = { snapshot, faultedFields: faulted, nowMs };
    const soilLost = lossOf('soilMoisture', sense);
    const tankLost = lossOf('waterLevel', sense);
    const level = snapshot.values.waterLevel;
    const tankBlocked =
      tankLost !== null ? `tank level unknown (${tankLost})` : level !== null && level <= this.options.tankLowLevelCm ? `tank low (${level} cm)` : null;
    let outsideWindow: string | null = null;
    if (program.window) {
      const state = windowAt(program.window, nowMs, this.options.site);
      if (state.kind !== 'inside') outsideWindow = `outside the watering window ${describeWindow(program.window, state)}`;
    }
    const step = stepProgram({
      program,
      state: this.#state,
      nowMs,
      soil: soilLost === null ? { pct: snapshot.values.soilMoisture! } : { lost: soilLost },
      tankBlocked,
      outsideWindow,
      usedTodaySeconds: this.#usedToday(nowMs),
    });
    this.#state = step.state;
    if (step.noEffect) {
      this.noEffectCycles++;
      this.#state = { ...IDLE, lastPulseAtMs: step.state.lastPulseAtMs };
    }
    this.#wakeAtMs = step.wakeAtMs;
    const wantOn = step.desired === 'on';
    if (wantOn === this.#on) return;
    if (this.#on) this.#addRun(this.#onSinceMs, nowMs);
    this.#on = wantOn;
    this.#onSinceMs = nowMs;
    out.push({ atMs: nowMs, on: wantOn, reason: step.reason });
  }

  #usedToday(nowMs: number): number {
    const day = localDayStartMs(nowMs);
    const running = this.#on ? (nowMs - Math.max(this.#onSinceMs, day)) / 1000 : 0;
    return (this.#usedByDay.get(day) ?? 0) + running;
  }

  #addRun(fromMs: number, toMs: number): void {
    // Split at local midnights, as the live budget (from the control log) does.
    let start = fromMs;
    while (start < toMs) {
      const day = localDayStartMs(start);
      const nextDay = localDayStartMs(day + 36 * 3_600_000);
      const end = Math.min(toMs, nextDay);
      this.#usedByDay.set(day, (this.#usedByDay.get(day) ?? 0) + (end - start) / 1000);
      start = end;
    }
  }
}
