// A preload for the gateway: V8's sampling heap profiler over what the gateway allocates, garbage
// included (what the young generation's scavenges collect: their number is what a Pi core pays for
// in pauses), from ALLOCATION_SAMPLING_AFTER_S (default 60: after start-up) to the process's exit.
// Written to ALLOCATION_SAMPLING_OUT (default /tmp/allocations.heapprofile); summarise it with
// allocations-by-function.mjs:
//
//   BENCH_NIGHT_PI_CORE=rates BENCH_NIGHT_MIN=4 \
//     BENCH_NODE_FLAGS="--import ./bench/diagnostics/allocation-sampling.mjs" npx tsx bench/overnight.bench.ts
//   node bench/diagnostics/allocations-by-function.mjs /tmp/allocations.heapprofile
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const afterMs = Number(process.env.ALLOCATION_SAMPLING_AFTER_S ?? 60) * 1000;
const out = process.env.ALLOCATION_SAMPLING_OUT ?? '/tmp/allocations.heapprofile';
const session = new Session();
session.connect();
let sampling = false;

setTimeout(() => {
  session.post('HeapProfiler.enable');
  session.post(
    'HeapProfiler.startSampling',
    { samplingInterval: 4096, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true },
    (err) => {
      if (err) console.error('allocation sampling did not start:', err.message);
      else sampling = true;
    },
  );
}, afterMs).unref();

process.on('exit', () => {
  if (!sampling) return;
  // A session on the main thread answers synchronously: the profile is written before the process ends.
  session.post('HeapProfiler.stopSampling', (err, result) => {
    if (err) console.error('allocation sampling did not stop:', err.message);
    else writeFileSync(out, JSON.stringify({ ...result.profile, sampledForMs: performance.now() - afterMs }));
  });
});
