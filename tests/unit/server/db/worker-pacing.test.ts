import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PAUSE_MS, STEPS_PER_CLOCK_READ, WORK_SLICE_MS, workerPacer, type PacerClock } from '../../../../server/db/worker-pacing.ts';

/** A clock that moves only when told (`clock.atMs += ...`), recording every sleep. */
function manualClock() {
  const sleeps: number[] = [];
  const clock: PacerClock & { atMs: number } = {
    atMs: 0,
    nowMs: () => clock.atMs,
    sleepMs: (ms) => {
      sleeps.push(ms);
      clock.atMs += ms;
    },
  };
  return { clock, sleeps };
}

describe('workerPacer (a background worker pauses after each slice of its CPU time)', () => {
  it('does not sleep within a slice, however many rows it steps', () => {
    const { clock, sleeps } = manualClock();
    const step = workerPacer({ clock, onMainThread: false, cpus: 1 });
    for (let i = 0; i < 10_000; i++) step();
    clock.atMs += WORK_SLICE_MS / 2;
    for (let i = 0; i < 10_000; i++) step();
    expect(sleeps).toEqual([]);
  });

  it('sleeps once a slice has been used, then starts a new slice after the pause', () => {
    const { clock, sleeps } = manualClock();
    const step = workerPacer({ clock, onMainThread: false, cpus: 1 });
    clock.atMs += WORK_SLICE_MS;
    for (let i = 0; i < 2 * STEPS_PER_CLOCK_READ; i++) step();
    expect(sleeps).toEqual([PAUSE_MS]);
    // The pause began a new slice: stepping on at the same instant does not sleep again.
    for (let i = 0; i < 1_000; i++) step();
    expect(sleeps).toEqual([PAUSE_MS]);
    clock.atMs += WORK_SLICE_MS * 3;
    for (let i = 0; i < 2 * STEPS_PER_CLOCK_READ; i++) step();
    expect(sleeps).toEqual([PAUSE_MS, PAUSE_MS]);
  });

  it.each([
    ['on the main thread (the event loop must not block)', { onMainThread: true, cpus: 1 }],
    ["with a CPU to spare (the worker does not share the event loop's core)", { onMainThread: false, cpus: 4 }],
  ])('never sleeps %s, whatever the clock says', (_where, placement) => {
    const { clock, sleeps } = manualClock();
    const step = workerPacer({ clock, ...placement });
    for (let i = 0; i < 1_000; i++) {
      clock.atMs += WORK_SLICE_MS;
      step();
    }
    expect(sleeps).toEqual([]);
  });

  it('pauses a real worker thread that keeps working (its own CPU clock and a real wait)', async () => {
    // Counts pauses, not their length: no timing threshold. The loop ends at its first pause (or after
    // 5 s of wall time on a very busy machine, and then fails).
    const pacingUrl = new URL('../../../../server/db/worker-pacing.ts', import.meta.url).href;
    const source = `
      const { parentPort } = require('node:worker_threads');
      const realWait = Atomics.wait;
      let pauses = 0;
      Atomics.wait = (...args) => { pauses++; return realWait(...args); };
      import(${JSON.stringify(pacingUrl)}).then(({ workerPacer }) => {
        const step = workerPacer({ onMainThread: false, cpus: 1 });
        const start = performance.now();
        while (pauses === 0 && performance.now() - start < 5000) step();
        parentPort.postMessage(pauses);
      });`;
    const tsxApi = import.meta.resolve('tsx/esm/api');
    const worker = new Worker(`import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); ${source} })`, { eval: true });
    try {
      const pauses = await new Promise<number>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(pauses).toBe(1);
    } finally {
      await worker.terminate();
    }
  });
});
