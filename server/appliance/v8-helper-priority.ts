import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { BACKGROUND_NICE } from '../db/worker-priority.ts';

/*
 * V8's helper threads (Node.js's platform workers) run the garbage collector's concurrent and parallel
 * work, and background compilation, for every isolate of the process: the main thread's, and the
 * preview, export and backup workers' too. They start at the main thread's priority, so on one Pi core
 * a worker that runs at nice 19 (server/db/worker-priority.ts) still had its collections done at nice 0,
 * and a concurrent collection of the main heap (the memory reducer's, seconds after a burst) took the
 * quota from the event loop's timers: on the Pi-core bench, the four helpers on the CPU for 13-37 ms
 * while the main thread, runnable, waited up to 330 ms (docs/performance.md, "V8's helper threads
 * behind the event loop"). At nice 19 they take the CPU the event loop leaves. A collection that needs
 * them to finish (a parallel pause) waits on them with the main thread blocked, not competing.
 *
 * libuv's thread pool is left alone: sensor reads (i2c-bus, the DHT driver) run on it.
 */

/** Node.js's own default for `--v8-pool-size`. */
const DEFAULT_V8_POOL_SIZE = 4;

/** The number of V8 platform workers `--v8-pool-size` asks for, from the command line and NODE_OPTIONS (the last one wins). */
export function v8PoolSize(execArgv: readonly string[], nodeOptions = '', cpus = availableParallelism()): number {
  const args = [...nodeOptions.split(/\s+/).filter(Boolean), ...execArgv];
  let size = DEFAULT_V8_POOL_SIZE;
  for (let i = 0; i < args.length; i++) {
    const match = /^--v8[-_]pool[-_]size(?:=(.*))?$/.exec(args[i]!);
    if (!match) continue;
    const value = Number(match[1] ?? args[i + 1]);
    if (Number.isInteger(value)) size = value;
  }
  // As Node.js does: 0 or less means "one fewer than the CPUs", and at least one.
  return size >= 1 ? size : Math.max(1, cpus - 1);
}

export interface ThreadState {
  tid: number;
  /** Where the thread sleeps in the kernel (/proc/<pid>/task/<tid>/wchan). */
  wchan: string;
}

/**
 * Which threads are V8's platform workers. Node.js creates them before any JavaScript runs, right after
 * the platform's delayed-task scheduler, a thread of its own waiting in epoll; the inspector's signal
 * thread and libuv's pool (made as modules load) come after them. Anything else, or a layout that does
 * not start with the scheduler, gives none: no thread is lowered on a guess.
 */
export function v8PlatformWorkers(mainTid: number, threads: readonly ThreadState[], poolSize: number): number[] {
  const others = threads.filter((thread) => thread.tid !== mainTid).sort((a, b) => a.tid - b.tid);
  if (!others[0]?.wchan.includes('epoll') || others.length < 1 + poolSize) return [];
  return others.slice(1, 1 + poolSize).map((thread) => thread.tid);
}

/** Lowers V8's helper threads to background priority (Linux; elsewhere, or when not allowed, nothing). Returns their ids. */
export function lowerV8HelperThreads(): number[] {
  try {
    const threads = readdirSync('/proc/self/task').map((tid) => ({ tid: Number(tid), wchan: readFileSync(`/proc/self/task/${tid}/wchan`, 'latin1') }));
    const workers = v8PlatformWorkers(process.pid, threads, v8PoolSize(process.execArgv, process.env.NODE_OPTIONS));
    for (const tid of workers) setPriority(tid, BACKGROUND_NICE);
    return workers;
  } catch {
    return [];
  }
}
