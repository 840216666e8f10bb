// A CPU quota for one process tree, as a Pi's core would give it: a cgroup v1 `cpu` child group with
// `cpu.cfs_quota_us` / `cpu.cfs_period_us` = 1250 / 10000 µs, i.e. 12.5 % of one core (one Cortex-A53
// of a Pi Zero 2 W or Pi 3 is about 1/8 of a core of these machines; docs/performance.md). Needs root
// and the v1 controller mounted at /sys/fs/cgroup/cpu.
//
// One core means one CPU as well: the process is pinned to a single CPU (taskset). Unpinned, its threads
// spread over this machine's CPUs and all draw on the one quota from each of them, which no Pi core
// does; on one CPU the scheduler also weighs the nice-19 workers against the event loop as a single
// core would. (Both forms gave the previews' figure within run-to-run noise: docs/performance.md.)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const CPU_CONTROLLER = '/sys/fs/cgroup/cpu';
export const PI_CORE_PERIOD_US = 10_000;
export const PI_CORE_QUOTA_US = 1_250;

export interface CpuQuota {
  /** The group's directory; the command from `wrap` writes its own pid into it before exec. */
  dir: string;
  /** argv that runs `command` inside the group from its first instruction (cold start included). */
  wrap(command: string[]): string[];
  /** How long the group's processes were held back by the quota so far (the controller's cpu.stat). */
  throttledMs(): number;
  /** Removes the group (its processes must have exited). */
  remove(): void;
}

export function piCoreAvailable(): boolean {
  return existsSync(join(CPU_CONTROLLER, 'cpu.cfs_quota_us')) && process.getuid?.() === 0;
}

/** `cpus`: the CPU list the process is pinned to (taskset's form, "0"), or null to leave it unpinned. */
export function createCpuQuota(name: string, quotaUs = PI_CORE_QUOTA_US, periodUs = PI_CORE_PERIOD_US, cpus: string | null = '0'): CpuQuota {
  const dir = join(CPU_CONTROLLER, `${name}-${process.pid}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'cpu.cfs_period_us'), String(periodUs));
  writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
  return {
    dir,
    wrap: (command) => [
      '/bin/sh',
      '-c',
      `echo $$ > ${join(dir, 'cgroup.procs')} && exec ${cpus === null ? '' : `taskset -c ${cpus} `}"$@"`,
      'pi-core',
      ...command,
    ],
    throttledMs() {
      const stat = readFileSync(join(dir, 'cpu.stat'), 'utf8');
      return Number(/^throttled_time (\d+)/m.exec(stat)?.[1] ?? 0) / 1e6;
    },
    remove() {
      // A group can only be removed once empty; the caller has waited for its processes to exit.
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          rmdirSync(dir);
          return;
        } catch {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        }
      }
      rmdirSync(dir);
    },
  };
}

/**
 * Moves the bench's own processes (`pids`, every thread of each) off the CPUs the gateway is pinned to.
 * The bench's clients (six phones reading 1.3 MB each, the MQTT burst) and the broker are not the
 * Pi's to run: on the gateway's CPU they took it from the throttled gateway outside its quota, and a
 * scheduler trace counted up to 70 ms of one gap as theirs (docs/performance.md, "Who holds the quota
 * in a gap"). Children spawned afterwards inherit the new affinity; the gateway's wrapper sets its own.
 * Nothing to do when the gateway is unpinned or no other CPU is left.
 */
export function keepOffGatewayCpus(gatewayCpus: string | null, pids: readonly number[]): void {
  if (gatewayCpus === null) return;
  const others = cpusOutside(gatewayCpus, availableParallelism());
  if (others.length === 0) return;
  for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', others.join(','), String(pid)], { stdio: 'ignore' });
}

/** The CPUs of 0..cpuCount-1 not in `list` (taskset's form: "0", "0,2", "1-3"). */
export function cpusOutside(list: string, cpuCount: number): number[] {
  const taken = new Set<number>();
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    for (let cpu = from!; cpu <= to!; cpu++) taken.add(cpu);
  }
  return Array.from({ length: cpuCount }, (_, cpu) => cpu).filter((cpu) => !taken.has(cpu));
}
