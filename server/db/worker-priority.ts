import { readlinkSync } from 'node:fs';
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
