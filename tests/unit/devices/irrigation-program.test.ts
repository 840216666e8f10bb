import { describe, expect, it } from 'vitest';
import { IDLE, stepProgram, type ProgramInput } from '../../../server/devices/irrigation/program.ts';
import { waterByDay } from '../../../server/devices/irrigation/water-days.ts';

const PROGRAM = { startBelowPct: 30, targetPct: 40, pulseSeconds: 20, soakMinutes: 5, maxPulses: 3, maxRunSecondsPerDay: 600 };
const T0 = Date.parse('2026-03-10T02:00:00Z');
const input = (over: Partial<ProgramInput> = {}): ProgramInput => ({
  program: PROGRAM,
  state: IDLE,
  nowMs: T0,
  soil: { pct: 20 },
  tankBlocked: null,
  outsideWindow: null,
  usedTodaySeconds: 0,
  ...over,
});

describe('the pulse and soak program', () => {
  it('starts a pulse below the start, ends it at pulseSeconds and soaks, then pulses again while below the target', () => {
    const first = stepProgram(input());
    expect(first).toMatchObject({ desired: 'on', wakeAtMs: T0 + 20_000, state: { phase: 'pulse', pulses: 1, startPct: 20 } });
    const soak = stepProgram(input({ state: first.state, nowMs: T0 + 20_000 }));
    expect(soak).toMatchObject({ desired: 'off', wakeAtMs: T0 + 320_000, state: { phase: 'soak' } });
    const again = stepProgram(input({ state: soak.state, nowMs: T0 + 320_000, soil: { pct: 30 } }));
    expect(again).toMatchObject({ desired: 'on', state: { phase: 'pulse', pulses: 2, startPct: 20 } });
    const target = stepProgram(input({ state: { ...again.state, phase: 'soak', untilMs: T0 }, soil: { pct: 40 } }));
    expect(target).toMatchObject({ desired: 'off', state: { phase: 'idle' } });
  });

  it('cuts the pulse to what is left of the day budget and waits when it is spent', () => {
    expect(stepProgram(input({ usedTodaySeconds: 590 })).reason).toMatch(/pulse 1\/3 \(10 s\)/);
    expect(stepProgram(input({ usedTodaySeconds: 600 }))).toMatchObject({ desired: 'off', reason: expect.stringMatching(/daily run budget spent/) });
  });

  it('a failing guard ends a running pulse at once', () => {
    const pulse = stepProgram(input()).state;
    expect(stepProgram(input({ state: pulse, nowMs: T0 + 5_000, tankBlocked: 'tank low' }))).toMatchObject({ desired: 'off', state: { phase: 'soak' } });
    expect(stepProgram(input({ state: pulse, nowMs: T0 + 5_000, outsideWindow: 'outside the watering window' })).desired).toBe('off');
  });

  it('pauses with a no-effect message when the last soak shows less than 2 points of rise, and stays paused', () => {
    const last = { ...IDLE, phase: 'soak' as const, pulses: 3, startPct: 20, untilMs: T0 };
    const step = stepProgram(input({ state: last, soil: { pct: 21.9 } }));
    expect(step.state.phase).toBe('paused');
    expect(step.noEffect).toMatch(/from 20 % to 21.9 %/);
    expect(stepProgram(input({ state: step.state, soil: { pct: 10 } })).desired).toBe('off');
    // 2 points or more: the cycle just ends.
    expect(stepProgram(input({ state: last, soil: { pct: 22 } })).state.phase).toBe('idle');
  });

  it('a lost probe stops watering; the fallback pulses every N hours', () => {
    expect(stepProgram(input({ soil: { lost: 'soil sensor faulted' } }))).toMatchObject({ desired: 'off', wakeAtMs: null });
    const program = { ...PROGRAM, fallbackEveryHours: 6 };
    const first = stepProgram(input({ program, soil: { lost: 'x' } }));
    expect(first).toMatchObject({ desired: 'on', fallbackActive: true, state: { fallback: true } });
    const later = stepProgram(input({ program, soil: { lost: 'x' }, state: { ...IDLE, lastPulseAtMs: T0 }, nowMs: T0 + 3_600_000 }));
    expect(later).toMatchObject({ desired: 'off', wakeAtMs: T0 + 6 * 3_600_000 });
  });
});

describe('water per day', () => {
  it('splits a run at local midnight, counts a pulse on the day it began and litres by flow', () => {
    const midnight = new Date(2026, 2, 11).getTime();
    const days = waterByDay(
      [
        { on: true, atMs: midnight - 30_000 },
        { on: false, atMs: midnight + 30_000 },
        { on: true, atMs: midnight + 60_000 },
      ],
      { nowMs: midnight + 90_000, days: 2, flowLitresPerMinute: 2 },
    );
    expect(days).toEqual([
      { date: '2026-03-10', pulses: 1, runSeconds: 30, litres: 1 },
      { date: '2026-03-11', pulses: 1, runSeconds: 60, litres: 2 },
    ]);
  });
});
