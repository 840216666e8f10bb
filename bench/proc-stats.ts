import { readFileSync } from 'node:fs';

/** Linux /proc figures of one process: resident memory and CPU time, for idle and load comparisons. */
export interface ProcSample {
  rssBytes: number;
  peakRssBytes: number;
  /** user + system CPU seconds so far. */
  cpuSeconds: number;
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux (getconf CLK_TCK), fixed at 100 on every Pi OS / Debian kernel

export function sampleProc(pid: number): ProcSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  // /proc/<pid>/stat: fields 14 and 15 (utime, stime) after the parenthesised command name.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssBytes: kb('VmRSS'), peakRssBytes: kb('VmHWM'), cpuSeconds: ticks / CLOCK_TICKS_PER_SECOND };
}

/** Average CPU (% of one core) and RSS of a process over `ms` of wall time. */
export async function idleProfile(pid: number, ms: number): Promise<{ cpuPercent: number; rssMb: number }> {
  const start = sampleProc(pid);
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const end = sampleProc(pid);
  const wallSeconds = (performance.now() - startedAt) / 1000;
  return { cpuPercent: ((end.cpuSeconds - start.cpuSeconds) / wallSeconds) * 100, rssMb: end.rssBytes / 2 ** 20 };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * CPU seconds the process's main thread (the event loop: sampling, rules, safety and every request) has
 * run, from the scheduler's own nanosecond count (/proc/<pid>/task/<pid>/schedstat), not the 10 ms ticks.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
}
