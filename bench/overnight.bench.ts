// A night on the gateway (docs/performance.md, "A night on the gateway"): whether anything grows while
// it runs for hours. A Pi Zero 2 W has 512 MB and no one watching it at 2 am, so memory, file
// descriptors or handles that grow a little with each tick, request or websocket message end the
// process (and then the restarts, with every output off meanwhile) after days or weeks.
//
// The compiled gateway as the unit runs it (bench/compiled-gateway.ts, a real Mosquitto) samples every
// second, five times the default interval, while six phones poll the Now screen every 2 s (seven times
// the dashboard's 15 s), each with its websocket open, load the charts and the device log every minute,
// and an operator switches the fan every 40 s (its minimum on and off times are 30 s): an hour of the
// bench is about a night of a greenhouse's dashboards and ticks. `--trace-gc` gives the V8 heap that
// survives each full collection (the live heap: what a leak grows); /proc gives RSS, descriptors and
// threads.
//
// Printed: each figure after a warm-up and at the end, and the growth per hour of the bench (a
// least-squares line through the samples), against the warm-up's own figure as the baseline.
//
//   npx tsx bench/overnight.bench.ts     BENCH_NIGHT_MIN (default 20) minutes, BENCH_NIGHT_WARMUP_MIN (default 3)
//   BENCH_NIGHT_PI_CORE=1                the gateway on the Pi core (bench/cpu-quota.ts) at the dashboard's own rates: the
//                                        default 5 s sampling, each phone polling every 15 s. What a night's phones cost the
//                                        event loop there: every sample's longest delay and p99
//   BENCH_NIGHT_PI_CORE=rates            those rates at full speed (with BENCH_CPU_PROF: what the quota stretches)
//   BENCH_NODE_FLAGS="--flag ..."       more node flags for the gateway (a preload of bench/diagnostics/)
//   BENCH_CPU_PROF=<dir>                 the gateway writes a V8 .cpuprofile there when it stops
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale } from '../scripts/build-server.mjs';
import { httpClient, type HttpClient } from '../tests/support/http.ts';
import { startMosquitto } from '../tests/support/mosquitto.ts';
import { TestSocket } from '../tests/support/ws.ts';
import { metricValue, scrapeMetrics, signUp, startGateway } from './compiled-gateway.ts';
import { createCpuQuota, keepOffGatewayCpus, piCoreAvailable } from './cpu-quota.ts';
import { mainThreadCpuSeconds, sampleProc } from './proc-stats.ts';
import { fmt, median } from './figures.ts';

const MINUTES = Number(process.env.BENCH_NIGHT_MIN ?? 20);
const WARMUP_MINUTES = Number(process.env.BENCH_NIGHT_WARMUP_MIN ?? 3);
/** `rates`: the Pi core's rates at full speed, for a profile of what the quota then stretches. */
const PI_CORE_RATES = process.env.BENCH_NIGHT_PI_CORE === '1' || process.env.BENCH_NIGHT_PI_CORE === 'rates';
const QUOTA = process.env.BENCH_NIGHT_PI_CORE === '1';
const PHONES = 6;
/** Seven times the dashboard's 15 s poll at full speed (growth sooner); its own rate on the Pi core. */
const PHONE_POLL_MS = PI_CORE_RATES ? 15_000 : 2_000;
/** Five times the default interval at full speed; the default (5 s) on the Pi core. */
const SAMPLING_INTERVAL_S = PI_CORE_RATES ? 5 : 1;
/**
 * Each phone loads the charts, the alert list and a device log this often at full speed (more code paths
 * to grow in); on the Pi core the phones stay on the Now screen all night, as a grower's would.
 */
const CHARTS_EVERY_MS = PI_CORE_RATES ? Number.POSITIVE_INFINITY : 60_000;
const SWITCH_EVERY_MS = 40_000;
const SAMPLE_EVERY_MS = 30_000;
const GREENHOUSE = 'greenhouse-001';
const MB = 2 ** 20;
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);


interface Sample {
  atMs: number;
  rssMb: number;
  /** The V8 heap after the last full collection before this sample (the main isolate's). */
  liveHeapMb: number | null;
  heapUsedMb: number;
  fds: number;
  threads: number;
  dataDirMb: number;
  cpuSeconds: number;
  /** Of which the main thread's: the event loop's own work. */
  mainThreadCpuSeconds: number;
  loopMaxMs: number;
  loopP99Ms: number;
  /** Sampling ticks so far and their summed duration (reads, storing, what listens to the tick). */
  ticks: number;
  tickSeconds: number;
  scavenges: number;
}

/** `Mark-Compact 21.7 (25.1) -> 18.6 (24.0) MB` in --trace-gc's lines: the heap after a full collection. */
const FULL_GC = /\[(\d+):(0x[0-9a-f]+)\]\s+\d+ ms: Mark-Compact[^>]*-> ([0-9.]+) \(/;

const SCAVENGE = /\d+ ms: Scavenge\b/;

/** Watches --trace-gc's lines for the main isolate's full collections (the first isolate to report is the main one). */
function liveHeapWatcher() {
  let mainIsolate: string | null = null;
  let liveMb: number | null = null;
  let fullCollections = 0;
  let scavenges = 0;
  return {
    onLine(line: string) {
      const isolate = /\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
      if (isolate && mainIsolate === null) mainIsolate = isolate;
      const full = FULL_GC.exec(line);
      if (full && full[2] === mainIsolate) {
        liveMb = Number(full[3]);
        fullCollections++;
      }
      if (isolate === mainIsolate && SCAVENGE.test(line)) scavenges++;
    },
    liveMb: () => liveMb,
    fullCollections: () => fullCollections,
    /** Young-generation collections of the main isolate: with its size fixed (v8-footprint.ts), a count of what the gateway allocates. */
    scavenges: () => scavenges,
  };
}

function directoryMb(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return bytes / MB;
}

/**
 * A phone on the Now screen: its websocket open, the screen's polls, the charts and a device log now and
 * then. Resolves once its socket has joined (the gateway holds at most four sockets from one address
 * before they authenticate: six opened in the same instant would be refused), with the phone's night.
 */
async function phone(url: string, token: string, deviceId: string, stopped: () => boolean, failures: string[]): Promise<{ night: Promise<number> }> {
  const socket = new TestSocket(url);
  await socket.join(token, GREENHOUSE);
  return { night: phoneNight(socket, url, token, deviceId, stopped, failures) };
}

async function phoneNight(socket: TestSocket, url: string, token: string, deviceId: string, stopped: () => boolean, failures: string[]): Promise<number> {
  const http = httpClient(url);
  const get = async (path: string) => {
    const res = await http.get(path, token);
    if (res.status !== 200) failures.push(`${path}: ${res.status}`);
    return res;
  };
  let chartsAtMs = Number.isFinite(CHARTS_EVERY_MS) ? 0 : Date.now();
  while (!stopped()) {
    await Promise.all([
      get(`/api/sensors/latest/${GREENHOUSE}`),
      get(`/api/devices/${GREENHOUSE}`),
      get(`/api/alerts/active/${GREENHOUSE}`),
      get(`/api/climate/${GREENHOUSE}/now`),
    ]);
    if (Date.now() - chartsAtMs >= CHARTS_EVERY_MS) {
      chartsAtMs = Date.now();
      await get(`/api/sensors/historical/${GREENHOUSE}?hours=24`);
      await get(`/api/sensors/stats/${GREENHOUSE}?hours=24`);
      await get(`/api/alerts/${GREENHOUSE}`);
      await get(`/api/devices/${encodeURIComponent(deviceId)}/log?limit=50`);
    }
    await sleep(PHONE_POLL_MS);
  }
  socket.close();
  return socket.messages.length;
}

/** An operator switching one device now and then: control log rows, realtime events, MQTT state. */
async function operator(http: HttpClient, token: string, deviceId: string, stopped: () => boolean, failures: string[]): Promise<number> {
  let switches = 0;
  while (!stopped()) {
    const res = await http.post(`/api/devices/${encodeURIComponent(deviceId)}/toggle`, undefined, token);
    if (res.status === 200) switches++;
    else failures.push(`toggle: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    await sleep(SWITCH_EVERY_MS);
  }
  return switches;
}

/** Growth per hour of a least-squares line through (minutes, value). */
function perHour(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return NaN;
  const meanX = points.reduce((s, [x]) => s + x, 0) / n;
  const meanY = points.reduce((s, [, y]) => s + y, 0) / n;
  const cov = points.reduce((s, [x, y]) => s + (x - meanX) * (y - meanY), 0);
  const varX = points.reduce((s, [x]) => s + (x - meanX) ** 2, 0);
  return (cov / varX) * 60;
}

buildServerIfStale();
if (QUOTA && !piCoreAvailable()) throw new Error('the Pi-core run needs root and the cgroup v1 cpu controller at /sys/fs/cgroup/cpu');
const quota = QUOTA ? createCpuQuota('greenhouse-night') : null;
const broker = await startMosquitto();
// The phones and the broker are not the Pi's to run: off the gateway's CPU (cpu-quota.ts).
if (quota) keepOffGatewayCpus('0', [process.pid, broker.pid()].filter((pid) => pid !== undefined));
const dataDir = mkdtempSync(join(tmpdir(), 'bench-overnight-'));
const gc = liveHeapWatcher();
const gateway = await startGateway(dataDir, broker.url, {
  quota,
  nodeFlags: ['--trace-gc', ...NODE_FLAGS],
  cpuProfDir: process.env.BENCH_CPU_PROF,
  onStdoutLine: gc.onLine,
});
const failures: string[] = [];
let stop = false;
const stopped = () => stop;
try {
  const http = httpClient(gateway.url);
  const token = await signUp(http, dataDir);
  const interval = await http.put(`/api/settings/${GREENHOUSE}/system`, { systemSettings: { updateInterval: SAMPLING_INTERVAL_S } }, token);
  if (interval.status !== 200) throw new Error(`updateInterval: ${interval.status} ${JSON.stringify(interval.body)}`);
  console.log(
    `overnight${quota ? ` on the Pi core (${quota.dir})` : ''}: ${MINUTES} min (warm-up ${WARMUP_MINUTES}), sampling every ${SAMPLING_INTERVAL_S} s, ` +
      `${PHONES} phones every ${PHONE_POLL_MS / 1000} s, a switch every ${SWITCH_EVERY_MS / 1000} s`,
  );

  const devices = (await http.get(`/api/devices/${GREENHOUSE}`, token)).body.data as Array<{ deviceId: string; deviceType: string }>;
  const fan = devices.find((d) => d.deviceType === 'FAN') ?? devices[0]!;

  const startedMs = Date.now();
  const phones: Array<Promise<number>> = [];
  for (let i = 0; i < PHONES; i++) phones.push((await phone(gateway.url, token, fan.deviceId, stopped, failures)).night);
  const switching = operator(http, token, fan.deviceId, stopped, failures);
  const samples: Sample[] = [];
  while (Date.now() - startedMs < MINUTES * 60_000) {
    await sleep(SAMPLE_EVERY_MS);
    const proc = sampleProc(gateway.pid);
    const metrics = await scrapeMetrics(http, token);
    const sample: Sample = {
      atMs: Date.now() - startedMs,
      rssMb: proc.rssBytes / MB,
      liveHeapMb: gc.liveMb(),
      heapUsedMb: metricValue(metrics, 'nodejs_heap_size_used_bytes') / MB,
      fds: readdirSync(`/proc/${gateway.pid}/fd`).length,
      threads: readdirSync(`/proc/${gateway.pid}/task`).length,
      dataDirMb: directoryMb(dataDir),
      cpuSeconds: proc.cpuSeconds,
      mainThreadCpuSeconds: mainThreadCpuSeconds(gateway.pid),
      loopMaxMs: metricValue(metrics, 'nodejs_eventloop_lag_max_seconds') * 1000,
      loopP99Ms: metricValue(metrics, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      ticks: metricValue(metrics, 'greenhouse_sampler_tick_duration_seconds_count'),
      tickSeconds: metricValue(metrics, 'greenhouse_sampler_tick_duration_seconds_sum'),
      scavenges: gc.scavenges(),
    };
    samples.push(sample);
    console.log(
      `  ${fmt(sample.atMs / 60_000)} min: RSS ${fmt(sample.rssMb)} MB, live heap ${sample.liveHeapMb === null ? '-' : fmt(sample.liveHeapMb)} MB, ` +
        `heap used ${fmt(sample.heapUsedMb)} MB, ${sample.fds} fds, ${sample.threads} threads, data dir ${fmt(sample.dataDirMb)} MB, loop max ${fmt(sample.loopMaxMs)} ms (p99 ${fmt(sample.loopP99Ms)})`,
    );
  }
  stop = true;
  const messages = await Promise.all(phones);
  const switches = await switching;

  const settled = samples.filter((s) => s.atMs >= WARMUP_MINUTES * 60_000);
  const first = settled[0]!;
  const last = settled.at(-1)!;
  const minutes = (s: Sample) => s.atMs / 60_000;
  const line = (name: string, pick: (s: Sample) => number | null, unit: string) => {
    const points = settled.flatMap((s): Array<[number, number]> => (pick(s) === null ? [] : [[minutes(s), pick(s)!]]));
    const from = pick(first);
    const to = pick(last);
    const ratio = from && to !== null ? ` (${fmt(to / from, 3)}x)` : '';
    console.log(`  ${name.padEnd(34)} ${from === null ? '-' : fmt(from)} -> ${to === null ? '-' : fmt(to)} ${unit}${ratio}, ${fmt(perHour(points), 2)} ${unit} an hour`);
  };
  console.log(`\nafter the warm-up (${fmt(minutes(first))} min) and at the end (${fmt(minutes(last))} min):`);
  line('RSS', (s) => s.rssMb, 'MB');
  line('live heap (after a full collection)', (s) => s.liveHeapMb, 'MB');
  line('file descriptors', (s) => s.fds, '');
  line('threads', (s) => s.threads, '');
  line('data dir', (s) => s.dataDirMb, 'MB');
  const settledS = (last.atMs - first.atMs) / 1000;
  const cpuPercent = ((last.cpuSeconds - first.cpuSeconds) / settledS) * 100;
  const mainThreadMsPerMinute = ((last.mainThreadCpuSeconds - first.mainThreadCpuSeconds) / settledS) * 60_000;
  const maxima = settled.map((s) => s.loopMaxMs);
  console.log(
    `  CPU ${fmt(cpuPercent)} % of a core (the main thread ${fmt(mainThreadMsPerMinute, 0)} ms a minute); longest event-loop delay ${fmt(Math.max(...maxima))} ms, median of the samples' longest ${fmt(median(maxima))} ms, ` +
      `largest p99 ${fmt(Math.max(...settled.map((s) => s.loopP99Ms)))} ms${quota ? `; throttled by the quota ${fmt(quota.throttledMs() / 1000)} s` : ''}`,
  );
  const meanTickMs = ((last.tickSeconds - first.tickSeconds) / (last.ticks - first.ticks)) * 1000;
  console.log(`  sampling ticks: ${fmt(last.ticks - first.ticks, 0)}, ${fmt(meanTickMs)} ms each on average (reads, storing and what listens to the tick)`);
  const scavengesPerMinute = ((last.scavenges - first.scavenges) / settledS) * 60;
  console.log(`  full collections of the main heap: ${gc.fullCollections()}; scavenges of its young generation: ${fmt(scavengesPerMinute, 1)} a minute`);
  console.log(`  websocket messages to the phones: ${fmt(messages.reduce((a, b) => a + b, 0), 0)}; switches: ${switches}`);
  console.log(`  failed requests: ${failures.length}${failures.length ? ` (${[...new Set(failures)].slice(0, 5).join('; ')})` : ''}`);
} finally {
  stop = true;
  await gateway.stop();
  quota?.remove();
  await broker.dispose();
  rmSync(dataDir, { recursive: true, force: true });
}
