// A second modelled Pi core for the gateway's background threads. A Pi Zero 2 W or Pi 3 has four
// Cortex-A53 cores; the gateway's heavy readers (rule previews, raw CSV export, backups) run on worker
// threads at nice 19 (server/db/worker-priority.ts), so on the Pi they run on a core beside the event
// loop's, not in its time. One quota for the whole process (bench/cpu-quota.ts) is the harder model:
// there a worker that used the period's 1.25 ms leaves the main thread waiting for the next period, and
// one that overran it (the scheduler checks the quota at its tick) for several (docs/performance.md).
//
// This model moves every nice-19 thread of the process, as it appears, into a quota group of its own
// (12.5 % of another CPU): the main thread and V8's helper threads keep the first core's quota.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCpuQuota, type CpuQuota } from './cpu-quota.ts';

/** A Linux thread's nice value: field 19 of /proc/<pid>/task/<tid>/stat (the fields after the name's ')' start at 3). */
export function niceOfStat(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

export interface BackgroundCore {
  /** Threads moved so far. */
  movedThreads(): number;
  throttledMs(): number;
  /** Stops watching and removes the group (the process must have exited). */
  remove(): void;
}

export function watchBackgroundThreads(pid: number, name: string, cpu: string): BackgroundCore {
  const quota: CpuQuota = createCpuQuota(name, undefined, undefined, cpu);
  const moved = new Set<string>();
  const poll = setInterval(() => {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return; // the process has gone
    }
    for (const tid of tids) {
      if (moved.has(tid)) continue;
      try {
        if (niceOfStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')) !== 19) continue;
        writeFileSync(join(quota.dir, 'tasks'), tid);
        spawnSync('taskset', ['-p', '-c', cpu, tid], { stdio: 'ignore' });
        moved.add(tid);
      } catch {
        // the thread ended between the listing and the move
      }
    }
  }, 5);
  return {
    movedThreads: () => moved.size,
    throttledMs: () => quota.throttledMs(),
    remove() {
      clearInterval(poll);
      quota.remove();
    },
  };
}
