import { IRRIGATION_NO_EFFECT, NO_EFFECT_RISE_PCT, type IrrigationPhase } from '../../contract/irrigation.ts';
import type { IrrigationProgram } from '../../contract/device.ts';

/**
 * The pulse-and-soak state machine of one pump (docs/irrigation.md). A pure function of the program,
 * the cycle so far, the inputs and the time: no I/O, so tests script it and the preview replays it.
 *
 * idle --(soil below start, guards pass)--> pulse --(pulse time up)--> soak --(soak over)-->
 *   target reached or soil lost: idle; pulses left: pulse; pulse limit reached: idle, or paused when
 *   the probe rose less than NO_EFFECT_RISE_PCT over the whole cycle (a dry tank, a clog, a leak or a
 *   probe out of the soil: watering on would waste water or flood). Paused ends only when a person
 *   resolves the alert.
 * Guards for every pulse: inside the window, run time left in today's budget, a known tank above its
 * low level. A guard that fails during a pulse ends it at once.
 */
export interface CycleState {
  phase: IrrigationPhase;
  /** Pulses given in this cycle. */
  pulses: number;
  /** The probe's reading when the cycle began (null in idle or for a fallback pulse). */
  startPct: number | null;
  /** When the current pulse or soak ends (epoch ms); null in idle and paused. */
  untilMs: number | null;
  /** When the last pulse began, for the fallback timer (epoch ms). */
  lastPulseAtMs: number | null;
  /** The current pulse is the lost-probe fallback's. */
  fallback: boolean;
}

export const IDLE: CycleState = { phase: 'idle', pulses: 0, startPct: null, untilMs: null, lastPulseAtMs: null, fallback: false };

export interface ProgramInput {
  program: IrrigationProgram;
  state: CycleState;
  nowMs: number;
  /** The probe's fresh reading, or why there is none. */
  soil: { pct: number } | { lost: string };
  /** Null when the tank may be used; else why not (low, unknown). */
  tankBlocked: string | null;
  /** Null inside the window (or without one); else the sentence saying it is outside. */
  outsideWindow: string | null;
  /** Run time already used in today's local day (all sources: the bed got that water). */
  usedTodaySeconds: number;
}

export interface ProgramStep {
  state: CycleState;
  /** 'on': run the pump; 'off': stop it (or keep it off). */
  desired: 'on' | 'off';
  /** The control log's and the card's reason. */
  reason: string;
  /** The next time the program must be asked again even without a new reading (pulse or soak end). */
  wakeAtMs: number | null;
  /** A cycle ended without effect: raise IRRIGATION_NO_EFFECT with this message. */
  noEffect?: string;
  /** The lost-probe fallback: true while the probe is lost and the fallback waters, false when it returns. */
  fallbackActive?: boolean;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

export function stepProgram(input: ProgramInput): ProgramStep {
  const { program, state, nowMs } = input;
  const leftSeconds = program.maxRunSecondsPerDay - input.usedTodaySeconds;
  // The fallback alert: on while the probe is lost and a fallback timer waters, off once it is back.
  const probeLost = 'lost' in input.soil;
  const fallbackActive = probeLost ? (program.fallbackEveryHours ? true : undefined) : false;
  const done = (step: Omit<ProgramStep, 'fallbackActive'>): ProgramStep => (fallbackActive === undefined ? step : { ...step, fallbackActive });
  const off = (next: CycleState, reason: string, wakeAtMs: number | null = next.untilMs): ProgramStep => done({ state: next, desired: 'off', reason, wakeAtMs });

  if (state.phase === 'paused') {
    return off(state, `Irrigation paused: the last cycle did not raise the soil moisture by ${NO_EFFECT_RISE_PCT} points; resolve the ${IRRIGATION_NO_EFFECT} alert after checking tank, line and probe`, null);
  }

  // Why no pulse may run now (the first of the guards), or null.
  const blocked = (): string | null => {
    if (input.outsideWindow) return input.outsideWindow;
    if (input.tankBlocked) return input.tankBlocked;
    if (leftSeconds < 1) return `daily run budget spent (${program.maxRunSecondsPerDay} s today)`;
    return null;
  };
  const startPulse = (next: Omit<CycleState, 'phase' | 'untilMs' | 'lastPulseAtMs'>, why: string): ProgramStep => {
    const seconds = Math.min(program.pulseSeconds, Math.floor(leftSeconds));
    const untilMs = nowMs + seconds * 1000;
    const pulses = next.pulses + 1;
    const label = next.fallback ? `fallback pulse (${seconds} s)` : `pulse ${pulses}/${program.maxPulses} (${seconds} s)`;
    return done({ state: { ...next, pulses, phase: 'pulse', untilMs, lastPulseAtMs: nowMs }, desired: 'on', reason: `Irrigation ${label}: ${why}`, wakeAtMs: untilMs });
  };

  if (state.phase === 'pulse') {
    const stop = blocked();
    if (stop !== null) return off({ ...state, phase: 'soak', untilMs: nowMs + program.soakMinutes * 60_000 }, `Irrigation pulse stopped: ${stop}`);
    if ('lost' in input.soil && !state.fallback) return off({ ...IDLE, lastPulseAtMs: state.lastPulseAtMs }, `Irrigation stopped: ${input.soil.lost}`, null);
    if (state.untilMs !== null && nowMs < state.untilMs) return done({ state, desired: 'on', reason: 'Irrigation pulse running', wakeAtMs: state.untilMs });
    const soakUntil = nowMs + program.soakMinutes * 60_000;
    return off({ ...state, phase: 'soak', untilMs: soakUntil }, `Irrigation ${state.fallback ? 'fallback pulse' : `pulse ${state.pulses}/${program.maxPulses}`} done: soaking ${program.soakMinutes} min`);
  }

  if ('lost' in input.soil) {
    const lost = input.soil.lost;
    const base = { ...IDLE, lastPulseAtMs: state.lastPulseAtMs };
    if (state.phase === 'soak' && state.untilMs !== null && nowMs < state.untilMs) return off(state, `Irrigation soaking; soil probe lost (${lost})`);
    const everyMs = (program.fallbackEveryHours ?? 0) * 3_600_000;
    if (everyMs <= 0) return off(base, `Irrigation waits: ${lost}; moisture watering stopped`, null);
    const dueMs = state.lastPulseAtMs === null ? nowMs : state.lastPulseAtMs + everyMs;
    if (nowMs < dueMs) return off(base, `Irrigation on fallback timer (${lost}): next pulse at ${new Date(dueMs).toISOString()}`, dueMs);
    const stop = blocked();
    if (stop !== null) return off(base, `Irrigation fallback pulse due but waits: ${stop}`, null);
    return startPulse({ pulses: 0, startPct: null, fallback: true }, `soil probe lost (${lost}), every ${program.fallbackEveryHours} h`);
  }

  const pct = input.soil.pct;
  if (state.phase === 'soak') {
    if (state.untilMs !== null && nowMs < state.untilMs) {
      return off(state, `Irrigation soaking after pulse ${state.pulses}/${program.maxPulses}: soil ${r1(pct)} %, target ${program.targetPct} %`);
    }
    if (state.fallback) return off({ ...IDLE, lastPulseAtMs: state.lastPulseAtMs }, `Irrigation fallback done; soil probe back at ${r1(pct)} %`, null);
    if (pct >= program.targetPct) return off({ ...IDLE, lastPulseAtMs: state.lastPulseAtMs }, `Irrigation done: soil ${r1(pct)} % reached the target ${program.targetPct} % in ${state.pulses} pulses`, null);
    if (state.pulses >= program.maxPulses) {
      const rise = state.startPct === null ? Infinity : pct - state.startPct;
      if (rise < NO_EFFECT_RISE_PCT) {
        const message = `Irrigation had no effect: ${state.pulses} pulses raised the soil from ${r1(state.startPct ?? pct)} % to ${r1(pct)} % (less than ${NO_EFFECT_RISE_PCT} points); the program is paused: check the tank, the line for a clog or leak, and that the probe is in the soil`;
        return { ...off({ ...IDLE, phase: 'paused', lastPulseAtMs: state.lastPulseAtMs }, message, null), noEffect: message };
      }
      return off({ ...IDLE, lastPulseAtMs: state.lastPulseAtMs }, `Irrigation cycle ended at its ${program.maxPulses} pulses: soil ${r1(pct)} % (target ${program.targetPct} %)`, null);
    }
    const stop = blocked();
    if (stop !== null) return off({ ...state, untilMs: null }, `Irrigation waits before pulse ${state.pulses + 1}: ${stop}`, null);
    return startPulse(state, `soil ${r1(pct)} % below the target ${program.targetPct} %`);
  }

  // idle
  if (pct >= program.startBelowPct) return off({ ...IDLE, lastPulseAtMs: state.lastPulseAtMs }, `Irrigation waits: soil ${r1(pct)} % (starts below ${program.startBelowPct} %)`, null);
  const stop = blocked();
  if (stop !== null) return off({ ...IDLE, lastPulseAtMs: state.lastPulseAtMs }, `Irrigation wanted (soil ${r1(pct)} % below ${program.startBelowPct} %) but waits: ${stop}`, null);
  return startPulse({ pulses: 0, startPct: pct, fallback: false }, `soil ${r1(pct)} % below ${program.startBelowPct} %`);
}
