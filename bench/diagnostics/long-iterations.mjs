// A preload for the gateway at full speed: logs every event-loop iteration longer than
// LONG_ITERATIONS_MS (default 8) to LONG_ITERATIONS_OUT (default /tmp/long-iterations.log), one line
// each: start and end in µs of the monotonic clock (the clock of a .cpuprofile's timestamps) and the
// length in ms. A setImmediate chain runs once per iteration, so the gap between two of its turns is
// one iteration: the timers, I/O callbacks and immediates it ran, with their microtasks. The chain
// keeps the loop from ever waiting, so use it at full speed only (on the quota it would spend the
// quota: use timer-gaps.mjs there). With iterations-in-profile.mjs, what each long iteration ran:
//
//   BENCH_ONLY=history BENCH_FULL_ONLY=1 BENCH_CPU_PROF=/tmp/prof \
//     BENCH_NODE_FLAGS="--cpu-prof-interval 100 --import ./bench/diagnostics/long-iterations.mjs" \
//     npx tsx bench/pi-core.bench.ts
//   node bench/diagnostics/iterations-in-profile.mjs /tmp/prof/*.cpuprofile /tmp/long-iterations.log 10
import { appendFileSync } from 'node:fs';

const longerThanMs = Number(process.env.LONG_ITERATIONS_MS ?? 8);
const out = process.env.LONG_ITERATIONS_OUT ?? '/tmp/long-iterations.log';
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

let lastUs = nowUs();
function everyIteration() {
  const now = nowUs();
  if (now - lastUs > longerThanMs * 1000) appendFileSync(out, `${lastUs} ${now} ${((now - lastUs) / 1000).toFixed(1)}\n`);
  lastUs = nowUs();
  setImmediate(everyIteration);
}
setImmediate(everyIteration);
