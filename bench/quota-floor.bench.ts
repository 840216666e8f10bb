// The floor the Pi-core model puts under every event-loop figure (docs/performance.md, "What the model
// itself adds"): a 10 ms timer on the main thread of a process in the same pinned 12.5 % quota as
// bench/pi-core.bench.ts, its worst lateness over 20 s, alone and beside a nice-19 worker thread that
// spins (as the preview, export and backup workers run). Nothing of the gateway runs here.
//
//   npx tsx bench/quota-floor.bench.ts      (root and the cgroup v1 cpu controller, as pi-core.bench.ts)
import { spawnSync } from 'node:child_process';
import { createCpuQuota, piCoreAvailable } from './cpu-quota.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 2);

/** The probe, run as `node -e` (CommonJS, as its eval'd worker is): prints its figures as JSON. */
const PROBE = `
const { Worker } = require('node:worker_threads');
if (process.argv.includes('spin')) {
  new Worker(\`
    const { readlinkSync } = require('node:fs');
    require('node:os').setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
    for (;;) Math.sqrt(Math.random());\`, { eval: true });
}
const lates = [];
let last = performance.now();
const started = last;
const timer = setInterval(() => {
  const now = performance.now();
  // The first 2 s are the process's own start.
  if (now - started > 2000) lates.push(now - last - 10);
  last = now;
  if (now - started > 22000) {
    clearInterval(timer);
    lates.sort((a, b) => a - b);
    console.log(JSON.stringify({ maxMs: lates.at(-1), p99Ms: lates[Math.floor(lates.length * 0.99)], ticks: lates.length }));
    process.exit(0);
  }
}, 10);
`;

if (!piCoreAvailable()) throw new Error('the quota needs root and the cgroup v1 cpu controller at /sys/fs/cgroup/cpu');
const quota = createCpuQuota('greenhouse-quota-floor', undefined, undefined, '0');
try {
  for (let run = 0; run < RUNS; run++) {
    for (const mode of ['alone', 'spin']) {
      const command = quota.wrap([process.execPath, '-e', PROBE, '--', mode]);
      const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(result.stderr);
      const { maxMs, p99Ms, ticks } = JSON.parse(result.stdout) as { maxMs: number; p99Ms: number; ticks: number };
      const label = mode === 'alone' ? 'timer alone' : 'beside a nice-19 worker spinning';
      console.log(`${label.padEnd(34)} worst ${maxMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms (${ticks} ticks)`);
    }
  }
} finally {
  quota.remove();
}
