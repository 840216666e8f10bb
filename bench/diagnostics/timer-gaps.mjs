// A preload for the gateway on the Pi core's quota: a 2 ms timer that logs each gap between its runs
// longer than TIMER_GAPS_MS (default 40) to TIMER_GAPS_OUT (default /tmp/timer-gaps.log), one line
// each: start and end in µs of the monotonic clock (as a .cpuprofile's timestamps), the gap in ms, and
// `at` the process's performance.now() (as --trace-gc's "ms:" stamps, to line the gaps up with the
// collections). Unlike long-iterations.mjs it lets the loop wait, so it costs the quota almost nothing.
//
//   BENCH_ONLY=history BENCH_QUOTA_ONLY=1 BENCH_GATEWAY_STDOUT=1 \
//     BENCH_NODE_FLAGS="--trace-gc --import ./bench/diagnostics/timer-gaps.mjs" npx tsx bench/pi-core.bench.ts
import { appendFileSync } from 'node:fs';

const longerThanMs = Number(process.env.TIMER_GAPS_MS ?? 40);
const out = process.env.TIMER_GAPS_OUT ?? '/tmp/timer-gaps.log';
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

let lastUs = nowUs();
setInterval(() => {
  const now = nowUs();
  if (now - lastUs > longerThanMs * 1000) appendFileSync(out, `${lastUs} ${now} ${((now - lastUs) / 1000).toFixed(1)} at ${performance.now().toFixed(0)}\n`);
  lastUs = now;
}, 2).unref();
