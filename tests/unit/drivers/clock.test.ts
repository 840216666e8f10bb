import { describe, expect, it } from 'vitest';
import { ManualClock, ScaledClock } from '../../../common/clock.ts';

describe('ScaledClock', () => {
  it('runs timeScale times faster than real time from its start', async () => {
    const clock = new ScaledClock(1_000_000, 1000);
    const startedBy = Date.now(); // the clock's own start is at or before this
    // Waited on the wall clock itself: a timer can fire before 20 ms of it have passed (libuv times it
    // from the loop's cached time, which is stale after a busy stretch of the test worker).
    while (Date.now() - startedBy < 20) await new Promise((r) => setTimeout(r, 5));
    // At least 20 real ms passed, so at least 20 simulated seconds.
    expect(clock.now() - 1_000_000).toBeGreaterThanOrEqual(20_000);
  });

  it('resumes just past the newest record of a previous run, never going backwards', () => {
    const clock = new ScaledClock(1_000_000, 100);
    clock.resumeAfter(5_000_000);
    expect(clock.now()).toBeGreaterThan(5_000_000);
    const ahead = clock.now();
    clock.resumeAfter(10); // already past it: unchanged
    expect(clock.now()).toBeGreaterThanOrEqual(ahead);
    clock.resumeAfter(null);
    expect(clock.now()).toBeGreaterThanOrEqual(ahead);
  });

  it('refuses a non-positive time scale', () => {
    expect(() => new ScaledClock(0, 0)).toThrow(/timeScale/);
  });
});

describe('ManualClock', () => {
  it('fires timers in due order while advancing', () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b'), 200);
    clock.setTimeout(() => fired.push('a'), 100);
    const cancelled = clock.setTimeout(() => fired.push('never'), 150);
    clock.clearTimeout(cancelled);
    clock.advance(150);
    expect(fired).toEqual(['a']);
    expect(clock.now()).toBe(150);
    clock.advance(100);
    expect(fired).toEqual(['a', 'b']);
    expect(clock.pendingTimers()).toBe(0);
  });
});
