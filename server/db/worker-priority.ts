import { readdirSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The lowest priority Linux gives (nice 19): a thread at it gets about 1.5 % of a core a thread at 0 wants. */
export const BACKGROUND_NICE = 19;

/**
 * Called first by a worker thread doing heavy reads (rule preview, CSV export, backup): on a Pi core the
 * worker then takes only the CPU the main thread leaves, so sampling, rules, safety timers and requests
 * are not delayed behind it (docs/performance.md). Linux schedules threads one by one: the worker's own
 * thread id (from /proc/thread-self) is lowered, not the process. Elsewhere it does nothing.
 */
export function runAsBackgroundThread(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // Not Linux, or not allowed: the work still runs, at normal priority.
  }
}

/**
 * The thread `before` and `after` differ by, when exactly one appeared; null otherwise (none, or
 * several started at once by other threads: then none is lowered on a guess).
 */
export function threadStartedBetween(before: readonly number[], after: readonly number[]): number | null {
  const known = new Set(before);
  const started = after.filter((tid) => !known.has(tid));
  return started.length === 1 ? started[0]! : null;
}

function threadIds(): number[] {
  return readdirSync('/proc/self/task').map(Number);
}

/**
 * Runs `start`, which starts one thread (a Worker: Node.js creates its thread before the constructor
 * returns), and lowers that thread to background priority from the calling thread at once. The worker
 * lowers itself too (runAsBackgroundThread), but only once its isolate and Node.js's bootstrap have run:
 * 15 ms of CPU at the main thread's priority, which on the Pi-core bench took the quota from the event
 * loop for 140 ms as the daily backup's worker started (docs/performance.md, "A worker's own start-up").
 * When the new thread cannot be told apart, or not lowered (not Linux), it is left to lower itself.
 */
export function startBelowMainThread<T>(start: () => T): T {
  let before: number[] | null = null;
  try {
    before = threadIds();
  } catch {
    // No /proc: start it as it is.
  }
  const started = start();
  if (!before) return started;
  try {
    const tid = threadStartedBetween(before, threadIds());
    if (tid !== null) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // Not allowed: the worker still lowers itself once it runs.
  }
  return started;
}
