import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { durationWords, HISTORY_WAIT_MS, readyForHistory, waitForHistory, type CatchingUp } from '../../../../server/history/history-wait.ts';
import { NotYetError } from '../../../../server/domain/errors.ts';
import type { CatchUpProgress } from '../../../../server/history/rollup-catch-up.ts';

/** A catch-up the test finishes by hand, reporting the progress it is given. */
function catchingUp(progress: CatchUpProgress | null) {
  let finish!: () => void;
  const current = new Promise<void>((resolve) => (finish = resolve));
  const state = { progress };
  const catchUp: CatchingUp = { whenCurrent: () => current, progress: () => state.progress };
  return { catchUp, finish, state };
}

const settled = async <T>(promise: Promise<T>) => {
  const outcome = await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), new Promise((resolve) => setImmediate(() => resolve('pending')))]);
  return outcome;
};

describe('waiting for history during a catch-up', () => {
  it('answers as soon as the catch-up is through, within the wait', async () => {
    const clock = new ManualClock();
    const { catchUp, finish } = catchingUp({ donePct: 10, leftSeconds: 5 });
    const waiting = waitForHistory(catchUp, clock);
    clock.advance(HISTORY_WAIT_MS - 1);
    expect(await settled(waiting)).toBe('pending');
    finish();
    expect(await settled(waiting)).toEqual({ value: undefined });
    expect(clock.pendingTimers()).toBe(0);
  });

  it('after the wait, a 503 that says how far it is and when to ask again', async () => {
    const clock = new ManualClock();
    const { catchUp } = catchingUp({ donePct: 42, leftSeconds: 200 });
    const waiting = waitForHistory(catchUp, clock);
    clock.advance(HISTORY_WAIT_MS);
    const outcome = (await settled(waiting)) as { error: NotYetError };
    expect(outcome.error).toBeInstanceOf(NotYetError);
    expect(outcome.error.kind).toBe('unavailable');
    expect(outcome.error.message).toBe('History is being rebuilt from the stored readings (42 % done, about 3 minutes left); charts return when it is through');
    // Asked again within a minute whatever the estimate.
    expect(outcome.error.retryAfterSeconds).toBe(60);
  });

  it('before the first slice there is no estimate yet, and Retry-After is short', async () => {
    const clock = new ManualClock();
    const { catchUp } = catchingUp({ donePct: 0, leftSeconds: null });
    const waiting = waitForHistory(catchUp, clock, 1_000);
    clock.advance(1_000);
    const outcome = (await settled(waiting)) as { error: NotYetError };
    expect(outcome.error.message).toBe('History is being rebuilt from the stored readings (0 % done); charts return when it is through');
    expect(outcome.error.retryAfterSeconds).toBe(5);
  });

  it('a catch-up that ended as the wait ran out answers, not 503', async () => {
    const clock = new ManualClock();
    const { catchUp, finish, state } = catchingUp({ donePct: 99, leftSeconds: 1 });
    const waiting = waitForHistory(catchUp, clock);
    state.progress = null;
    clock.advance(HISTORY_WAIT_MS);
    finish();
    expect(await settled(waiting)).toEqual({ value: undefined });
  });
});

describe('readyForHistory', () => {
  it('commits the held batch only once a running catch-up is through, then answers', async () => {
    const clock = new ManualClock();
    const { catchUp, finish } = catchingUp({ donePct: 30, leftSeconds: 4 });
    let commits = 0;
    const ready = readyForHistory(catchUp, () => commits++, clock);
    expect(await settled(ready)).toBe('pending');
    expect(commits).toBe(0);
    finish();
    expect(await settled(ready)).toEqual({ value: undefined });
    expect(commits).toBe(1);
  });

  it('commits nothing when the catch-up outlasts the wait: the 503 comes first', async () => {
    const clock = new ManualClock();
    const { catchUp } = catchingUp({ donePct: 30, leftSeconds: 40 });
    let commits = 0;
    const ready = readyForHistory(catchUp, () => commits++, clock);
    clock.advance(HISTORY_WAIT_MS);
    expect(await settled(ready)).toMatchObject({ error: expect.any(NotYetError) });
    expect(commits).toBe(0);
  });
});

describe('durationWords', () => {
  it('seconds, minutes, hours', () => {
    expect(durationWords(0.2)).toBe('1 second');
    expect(durationWords(45)).toBe('45 seconds');
    expect(durationWords(200)).toBe('3 minutes');
    expect(durationWords(7300)).toBe('2 hours');
  });
});
