import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** How much CPU time a background worker uses before it pauses: under a Pi core's 1.25 ms of each 10 ms period. */
export const WORK_SLICE_MS = 1;
/** How long it then sleeps: enough to block in the kernel (a context switch), short enough to cost little. */
export const PAUSE_MS = 0.1;
/**
 * Steps between two reads of the clock: one step is a row (a few microseconds), one read about 20 µs, so
 * a slice ends within half a millisecond of its time at a cost of a few per cent.
 */
export const STEPS_PER_CLOCK_READ = 128;

export interface PacerClock {
  nowMs(): number;
  sleepMs(ms: number): void;
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * This thread's CPU time in ms, from the scheduler's own count (/proc/thread-self/schedstat, first field,
 * ns): time spent throttled or waiting for the CPU is not work, and must not end a slice early. Elsewhere
 * (not Linux) wall time stands in for it.
 */
function threadCpuMsReader(): () => number {
  // Opened afresh at each read: a worker that is terminated (a preview whose client went) runs no
  // clean-up, and a descriptor kept open would outlive it in the process.
  const read = () => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]) / 1e6;
  try {
    if (Number.isFinite(read())) return read;
  } catch {
    // not Linux
  }
  return () => performance.now();
}

function threadClock(): PacerClock {
  return {
    nowMs: threadCpuMsReader(),
    // Nothing ever notifies the cell: the wait always runs to its timeout.
    sleepMs: (ms) => void Atomics.wait(pauseCell, 0, 0, ms),
  };
}

/**
 * A step function for a background worker's row loop (rule preview, CSV export): called once per row,
 * it sleeps PAUSE_MS after each WORK_SLICE_MS of the thread's CPU time. Why a nice-19 worker must also
 * pause: in a CPU quota (the Pi-core bench; docs/performance.md, "Background workers that pause; what
 * each window's p99 says") the kernel charges a thread's running time to the group's quota when it
 * schedules, which a thread that never blocks does only at each 4 ms scheduler tick. Running on, the worker overdraws the quota the
 * event loop shares, and the whole process is then held for the periods that pay it back; a worker that
 * blocks after each millisecond is charged as it goes. Measured on the Pi-core bench, the 99th percentile
 * of the event loop's delay beside two previews fell from about 100 to 70 ms, and beside an export from
 * 50 to 30-40 ms; the previews took a quarter to two thirds longer there.
 *
 * Only where the worker shares the event loop's one CPU: with a CPU of its own (a Pi Zero 2 W or Pi 3
 * has four) a pause would only slow the grower's preview or download. `os.availableParallelism()` counts
 * the CPUs this process may run on (its affinity: the Pi-core bench pins to one). On the main thread it
 * never sleeps: the event loop must not block.
 */
export function workerPacer(options: { clock?: PacerClock; onMainThread?: boolean; cpus?: number } = {}): () => void {
  const { onMainThread = isMainThread, cpus = availableParallelism() } = options;
  if (onMainThread || cpus > 1) return () => undefined;
  const clock = options.clock ?? threadClock();
  let sliceStartMs = clock.nowMs();
  let steps = 0;
  return () => {
    if (++steps % STEPS_PER_CLOCK_READ !== 0) return;
    if (clock.nowMs() - sliceStartMs < WORK_SLICE_MS) return;
    clock.sleepMs(PAUSE_MS);
    sliceStartMs = clock.nowMs();
  };
}
