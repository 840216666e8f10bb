// The gateway on a Pi core (docs/performance.md, "The gateway on a Pi core"): the compiled gateway as
// the unit runs it (`node dist/server/main.js`), over a week of 1 Hz readings, run twice in one go: at
// full speed (the baseline) and inside a CPU quota of 12.5 % of one core (bench/cpu-quota.ts). Each run
// reports cold start, idle CPU and RSS, bytes written per day (/proc/<pid>/io over an idle window at
// the default interval), historical 1 h and 168 h latency, and the gateway's own longest event-loop
// delay and its p99 (its /api/metrics `nodejs_eventloop_lag_max_seconds` and `_p99_seconds`, reset at
// each scrape) during: six dashboards loading Last Week, two 168 h rule previews, a 168 h CSV export and
// an MQTT burst through a real Mosquitto. Printed side by side with the quota/full ratio.
//
//   npx tsx bench/pi-core.bench.ts      BENCH_DAYS=2 for a shorter history, BENCH_IDLE_S for the idle window
//   BENCH_ONLY=history                   history reads and six Last Week loads only (no idle, previews, export, MQTT)
//   BENCH_ONLY=idle                      cold start, the daily backup and the idle window only (bytes written)
//   BENCH_ONLY=load                      no idle window: history, Last Week, previews, export, MQTT burst
//   BENCH_ONLY=previews                  the two 168 h rule previews only (A/B runs of what their window holds)
//   BENCH_ONLY=start                     cold start only, BENCH_STARTS times (default 5): median, fastest, slowest
//   BENCH_ONLY=catch-up                  the week as raw rows only (a restore, an import, an upgrade from before the
//                                        rollups): six Now screens polling the newest readings while the rollups catch up
//   BENCH_QUOTA_ONLY=1                   the Pi-core run only (no full-speed baseline)
//   BENCH_FULL_ONLY=1                    the full-speed run only (with BENCH_NODE_FLAGS=--trace-gc: what a scenario collects)
//   BENCH_PI_CORE_CPUS=all               the quota over all CPUs instead of pinned to CPU 0 (bench/cpu-quota.ts says why not)
//   BENCH_BACKGROUND_CORE=1              the worker threads (nice 19) on a second modelled core, as on a four-core Pi (bench/background-core.ts)
//   BENCH_NODE_FLAGS="--flag ..."       node flags for the gateway (experiments: what a flag changes on the Pi core)
//   BENCH_CPU_PROF=<dir>                 the gateway writes a V8 .cpuprofile there when it stops (where the time goes)
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale } from '../scripts/build-server.mjs';
import { openDatabase } from '../server/db/open.ts';
import { certificateNames } from '../server/http/certificate-names.ts';
import { ensureLocalCertificate } from '../server/https/tls-store.ts';
import { RollupWriter } from '../server/history/rollup-writer.ts';
import { httpClient, type HttpClient } from '../tests/support/http.ts';
import { startMosquitto, type Broker } from '../tests/support/mosquitto.ts';
import { watchBackgroundThreads, type BackgroundCore } from './background-core.ts';
import { loopLag, signUp, startGateway, type GatewayOptions } from './compiled-gateway.ts';
import { createCpuQuota, keepOffGatewayCpus, piCoreAvailable, type CpuQuota } from './cpu-quota.ts';
import { mainThreadCpuSeconds, sampleProc } from './proc-stats.ts';
import { seedRawReadings } from './seed-readings.ts';
import { ApiError, retryAfterMsOf } from '../web/src/api/client.ts';
import { NOT_YET_RETRY_MS, notYetRetryMs } from '../web/src/api/queries.ts';
import { fmt, median } from './figures.ts';

const DAYS = Number(process.env.BENCH_DAYS ?? 7);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);
const BIRTHS = Number(process.env.BENCH_MQTT_BIRTHS ?? 5_000);
const JUNK_COMMANDS = Number(process.env.BENCH_MQTT_JUNK ?? 1_000);
const JUNK_BYTES = 4_096;
const ONLY_HISTORY = process.env.BENCH_ONLY === 'history';
const ONLY_IDLE = process.env.BENCH_ONLY === 'idle';
const ONLY_START = process.env.BENCH_ONLY === 'start';
const ONLY_CATCH_UP = process.env.BENCH_ONLY === 'catch-up';
const ONLY_PREVIEWS = process.env.BENCH_ONLY === 'previews';
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const SKIP_IDLE = ONLY_HISTORY || ONLY_PREVIEWS || process.env.BENCH_ONLY === 'load';
const QUOTA_ONLY = process.env.BENCH_QUOTA_ONLY === '1';
const FULL_ONLY = process.env.BENCH_FULL_ONLY === '1';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const BACKGROUND_CORE = process.env.BENCH_BACKGROUND_CORE === '1';
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const PI_CORE_CPUS = process.env.BENCH_PI_CORE_CPUS === 'all' ? null : (process.env.BENCH_PI_CORE_CPUS ?? '0');
const DAY_S = 86_400;
const MB = 1e6;

/** How this bench starts the gateway: the flags and profile it was asked for, in the quota when there is one. */
const gatewayOptions = (quota: CpuQuota | null): GatewayOptions => ({
  quota,
  nodeFlags: NODE_FLAGS,
  cpuProfDir: CPU_PROF_DIR,
  // BENCH_GATEWAY_STDOUT=1 shows the gateway's standard output (with BENCH_NODE_FLAGS=--trace-gc, its collections).
  showStdout: process.env.BENCH_GATEWAY_STDOUT === '1',
});


function writeBytes(pid: number): number {
  return Number(/^write_bytes: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
}

/**
 * A data dir with a week of 1 Hz readings and their rollups, as an installation that has run a week;
 * with `folded` false, the raw rows only, as a restore, an import or an upgrade from before the rollups
 * leaves them. Its local CA and server certificate are there too, for the names the gateway will ask
 * for: a start is then a restart, not an installation's first (which issues them).
 */
async function seedTemplate(folded = true): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pi-core-seed-'));
  const database = openDatabase(dir);
  const started = performance.now();
  const rows = seedRawReadings(database.sqlite, { seconds: DAYS * DAY_S, stepS: 1, endMs: Date.now() });
  if (folded) new RollupWriter(database.sqlite).foldPending();
  database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  database.close();
  await ensureLocalCertificate({ dir: join(dir, 'tls'), names: certificateNames({ listenHost: '127.0.0.1', allowedHosts: [], hostNames: [] }), nowMs: Date.now() });
  console.log(`seeded ${fmt(rows, 0)} readings (${DAYS} days at 1 Hz) ${folded ? 'with rollups' : 'without rollups'} in ${fmt((performance.now() - started) / 1000)} s`);
  return dir;
}

/** Runs `scenario` between two scrapes: the longest event-loop delay inside it (and its p99), and its wall time. */
async function withinLoop(http: HttpClient, token: string, scenario: () => Promise<void>): Promise<{ loopMs: number; p99Ms: number; wallMs: number }> {
  await loopLag(http, token);
  const started = performance.now();
  await scenario();
  const wallMs = performance.now() - started;
  const { maxMs, p99Ms } = await loopLag(http, token);
  return { loopMs: maxMs, p99Ms, wallMs };
}

async function getOk(url: string, path: string, token: string): Promise<number> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return bytes;
}

async function timeGet(url: string, path: string, token: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await getOk(url, path, token);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** A burst on the broker: Home Assistant birth messages, oversized junk commands, then one real command whose answer ends it. */
async function mqttBurst(broker: Broker, deviceIds: string[]): Promise<{ sentBytes: number; repliedBytes: number }> {
  const client = await mqtt.connectAsync(broker.url, { clientId: `bench-burst-${process.pid}` });
  const root = 'greenhouse/greenhouse-001/devices';
  let repliedBytes = 0;
  const last = deviceIds[deviceIds.length - 1]!;
  const done = new Promise<void>((resolve) => {
    client.on('message', (topic, payload) => {
      repliedBytes += payload.length;
      if (topic === `${root}/${last}/result` && payload.toString().includes('"command":"OFF"')) resolve();
    });
  });
  await client.subscribeAsync(`${root}/+/result`);
  let sentBytes = 0;
  const junk = 'x'.repeat(JUNK_BYTES);
  for (let i = 0; i < BIRTHS; i++) {
    client.publish('homeassistant/status', 'online');
    sentBytes += 6;
  }
  for (let i = 0; i < JUNK_COMMANDS; i++) {
    client.publish(`${root}/${deviceIds[i % deviceIds.length]}/set`, junk);
    sentBytes += JUNK_BYTES;
  }
  client.publish(`${root}/${last}/set`, 'OFF');
  await Promise.race([done, sleep(300_000)]);
  await client.endAsync();
  return { sentBytes, repliedBytes };
}

type Figures = Record<string, number>;

async function runOnce(template: string, broker: Broker, quota: CpuQuota | null): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pi-core-run-'));
  cpSync(template, dataDir, { recursive: true });
  const gateway = await startGateway(dataDir, broker.url, gatewayOptions(quota));
  const figures: Figures = { 'cold start ms': gateway.coldStartMs, 'cold start CPU ms': gateway.coldStartCpuMs };
  const background: BackgroundCore | null = quota && BACKGROUND_CORE ? watchBackgroundThreads(gateway.pid, 'greenhouse-pi-core-2', '1') : null;
  try {
    const http = httpClient(gateway.url);
    const token = await signUp(http, dataDir);

    if (!SKIP_IDLE) await idleFigures(gateway.pid, dataDir, figures, http, token);
    if (!ONLY_IDLE && !ONLY_PREVIEWS) await historyFigures(gateway.url, http, token, figures);
    if (!ONLY_HISTORY && !ONLY_IDLE) await heavyFigures(gateway.pid, gateway.url, http, token, broker, figures);
    if (quota) figures['throttled by the quota s'] = quota.throttledMs() / 1000;
    if (background) {
      figures['threads on the background core'] = background.movedThreads();
      figures['background core throttled s'] = background.throttledMs() / 1000;
    }
  } finally {
    await gateway.stop();
    background?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

/**
 * The Now screen while the rollups catch up with a week of raw rows: six phones ask for the newest
 * readings every 2 s, as the dashboard polls them, until a 1 h history (which waits for the catch-up,
 * or says "not yet" after 10 s) answers. The longest event-loop delay of that window, and how long the newest readings took.
 */
async function catchUpFigures(template: string, broker: Broker, quota: CpuQuota | null): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pi-core-run-'));
  cpSync(template, dataDir, { recursive: true });
  const gateway = await startGateway(dataDir, broker.url, gatewayOptions(quota));
  const figures: Figures = { 'cold start ms': gateway.coldStartMs, 'cold start CPU ms': gateway.coldStartCpuMs };
  try {
    const http = httpClient(gateway.url);
    const token = await signUp(http, dataDir);
    const latestMs: number[] = [];
    let failed = 0;
    let notYet = 0;
    const historyWaitsMs: number[] = [];
    let caughtUp = false;
    const window = await withinLoop(http, token, async () => {
      const nowScreens = Array.from({ length: 6 }, async () => {
        while (!caughtUp) {
          const started = performance.now();
          try {
            await getOk(gateway.url, '/api/sensors/latest/default', token);
            latestMs.push(performance.now() - started);
          } catch {
            // A kept-alive connection the gateway closed late, its event loop held: the phone asks again.
            failed++;
          }
          await sleep(2_000);
        }
      });
      // History waits for the catch-up up to 10 s, then answers 503 with how far it is (docs/storage.md);
      // the dashboard asks again when its Retry-After says (notYetRetryMs), and so does this phone.
      for (let status = 0, retryAfter: string | null = null; status !== 200; ) {
        const started = performance.now();
        try {
          const res = await fetch(`${gateway.url}/api/sensors/historical/default?hours=1`, { headers: { authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
          status = res.status;
          retryAfter = res.headers.get('retry-after');
        } catch {
          // No answer at all within undici's 300 s.
          failed++;
        }
        historyWaitsMs.push(performance.now() - started);
        if (status === 503) {
          notYet++;
          await sleep(notYetRetryMs(new ApiError('not yet', status, null, null, retryAfterMsOf(retryAfter))) || NOT_YET_RETRY_MS);
        } else if (status !== 200) throw new Error(`historical: ${status}`);
      }
      caughtUp = true;
      await Promise.all(nowScreens);
    });
    figures['catch-up: wall ms'] = window.wallMs;
    figures['catch-up: loop max ms'] = window.loopMs;
    figures['catch-up: loop p99 ms'] = window.p99Ms;
    figures['catch-up: newest readings, answers'] = latestMs.length;
    figures['catch-up: requests failed'] = failed;
    figures['catch-up: history answered "not yet"'] = notYet;
    figures['catch-up: history, longest wait for an answer ms'] = Math.max(...historyWaitsMs);
    // NaN, not a figure, when no answer came at all.
    figures['catch-up: newest readings median ms'] = latestMs.length > 0 ? median(latestMs) : Number.NaN;
    figures['catch-up: newest readings slowest ms'] = latestMs.length > 0 ? Math.max(...latestMs) : Number.NaN;
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

/** Cold start alone, several times over fresh copies of the week: one start varies by a second here. */
async function coldStarts(template: string, broker: Broker, quota: CpuQuota | null): Promise<Figures> {
  const startsMs: number[] = [];
  const cpuMs: number[] = [];
  for (let run = 0; run < STARTS; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-pi-core-run-'));
    cpSync(template, dataDir, { recursive: true });
    try {
      const gateway = await startGateway(dataDir, broker.url, gatewayOptions(quota));
      startsMs.push(gateway.coldStartMs);
      cpuMs.push(gateway.coldStartCpuMs);
      await gateway.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  startsMs.sort((a, b) => a - b);
  return {
    [`cold start ms, median of ${STARTS}`]: startsMs[Math.floor(startsMs.length / 2)]!,
    'cold start ms, fastest': startsMs[0]!,
    'cold start ms, slowest': startsMs.at(-1)!,
    [`cold start CPU ms, median of ${STARTS}`]: median(cpuMs),
  };
}

async function idleFigures(pid: number, dataDir: string, figures: Figures, http: HttpClient, token: string): Promise<void> {
  // The daily backup runs a minute after start: its bytes are a figure of their own (once a day),
  // then the idle window at the default interval: CPU, RSS and bytes written, extrapolated to a day.
  const writtenAtStart = writeBytes(pid);
  const backups = join(dataDir, 'backups');
  const backupDeadline = Date.now() + 600_000;
  while (Date.now() < backupDeadline && !(existsSync(backups) && readdirSync(backups).some((f) => f.endsWith('.db')))) await sleep(500);
  await sleep(5_000);
  figures['daily backup written MB'] = (writeBytes(pid) - writtenAtStart) / MB;
  const before = sampleProc(pid);
  const mainBefore = mainThreadCpuSeconds(pid);
  const writtenBefore = writeBytes(pid);
  const idleStarted = performance.now();
  // The longest delay with nothing asked of the gateway (sampling, batched commits, rollup folds): the
  // floor under every scenario's figure, since a scenario's window holds the same background work.
  const idleLoop = await withinLoop(http, token, () => sleep(IDLE_S * 1000));
  figures['idle: loop max ms'] = idleLoop.loopMs;
  figures['idle: loop p99 ms'] = idleLoop.p99Ms;
  const idleS = (performance.now() - idleStarted) / 1000;
  const after = sampleProc(pid);
  figures['idle CPU % of a core'] = ((after.cpuSeconds - before.cpuSeconds) / idleS) * 100;
  // The event loop's own share: what sampling ticks, commits and timers cost it, a minute at a time.
  figures['idle: main thread CPU ms a minute'] = ((mainThreadCpuSeconds(pid) - mainBefore) / idleS) * 60_000;
  figures['idle RSS MB'] = after.rssBytes / 2 ** 20;
  figures['written per day MB'] = ((writeBytes(pid) - writtenBefore) / idleS) * DAY_S / MB;
}

async function historyFigures(url: string, http: HttpClient, token: string, figures: Figures): Promise<void> {

  await getOk(url, '/api/sensors/historical/default?hours=168', token); // warm-up, as an open dashboard
  figures['historical 1 h ms'] = await timeGet(url, '/api/sensors/historical/default?hours=1', token, 5);
  figures['historical 168 h ms'] = await timeGet(url, '/api/sensors/historical/default?hours=168', token, 5);

  // A sampling tick lands first (every 5 s by default), as between a grower's visits: the six phones
  // then find an answer to compute rather than the one the warm-up left (server/sensors/history-answers.ts).
  await sleep(6_000);
  const lastWeek = await withinLoop(http, token, async () => {
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (const call of ['historical', 'stats', 'hourly']) await getOk(url, `/api/sensors/${call}/default?hours=168`, token);
      }),
    );
  });
  figures['six Last Week: loop max ms'] = lastWeek.loopMs;
  figures['six Last Week: loop p99 ms'] = lastWeek.p99Ms;
  figures['six Last Week: wall ms'] = lastWeek.wallMs;
}

/** The gateway's largest RSS from now until `stop()` (polled every 100 ms), in bytes. */
function peakRssOf(pid: number): { stop(): number } {
  let peak = sampleProc(pid).rssBytes;
  const poll = setInterval(() => {
    try {
      peak = Math.max(peak, sampleProc(pid).rssBytes);
    } catch {
      // The gateway is gone: a window that failed stops it, and its error is the one to report.
      clearInterval(poll);
    }
  }, 100);
  return {
    stop() {
      clearInterval(poll);
      return Math.max(peak, sampleProc(pid).rssBytes);
    },
  };
}

async function heavyFigures(pid: number, url: string, http: HttpClient, token: string, broker: Broker, figures: Figures): Promise<void> {

  const devices = (await http.get('/api/devices/default', token)).body.data as Array<{ deviceId: string }>;
  const previewsRss = peakRssOf(pid);
  const previews = await withinLoop(http, token, async () => {
    const results = await Promise.all(
      [0, 1].map(() => http.post(`/api/devices/${devices[0]!.deviceId}/automation/preview`, { automationRules: { temperatureHigh: 24 }, hours: 168 }, token)),
    );
    for (const r of results) if (r.status !== 200) throw new Error(`preview: ${r.status} ${JSON.stringify(r.body)}`);
  });
  figures['two 168 h previews: loop max ms'] = previews.loopMs;
  figures['two 168 h previews: loop p99 ms'] = previews.p99Ms;
  figures['two 168 h previews: wall ms'] = previews.wallMs;
  figures['two 168 h previews: peak RSS MB'] = previewsRss.stop() / 2 ** 20;
  if (ONLY_PREVIEWS) return;

  let exportBytes = 0;
  const exportRss = peakRssOf(pid);
  const exported = await withinLoop(http, token, async () => {
    exportBytes = await getOk(url, '/api/analytics/export/default?hours=168', token);
  });
  figures['168 h export: loop max ms'] = exported.loopMs;
  figures['168 h export: loop p99 ms'] = exported.p99Ms;
  figures['168 h export: wall ms'] = exported.wallMs;
  figures['168 h export MB'] = exportBytes / MB;
  figures['168 h export: peak RSS MB'] = exportRss.stop() / 2 ** 20;

  const burstRss = peakRssOf(pid);
  let burst = { sentBytes: 0, repliedBytes: 0 };
  const mqttRun = await withinLoop(http, token, async () => {
    burst = await mqttBurst(broker, devices.map((d) => d.deviceId));
  });
  const burstPeakRss = burstRss.stop();
  figures['MQTT burst: loop max ms'] = mqttRun.loopMs;
  figures['MQTT burst: loop p99 ms'] = mqttRun.p99Ms;
  figures['MQTT burst: wall ms'] = mqttRun.wallMs;
  figures['MQTT burst: replies / commands bytes'] = burst.repliedBytes / burst.sentBytes;
  figures['MQTT burst: peak RSS MB'] = burstPeakRss / 2 ** 20;
  const metrics = String((await http.get('/api/metrics', token)).body);
  for (const line of metrics.split('\n').filter((l) => /^greenhouse_mqtt_(dropped_input|input_dropped)/.test(l))) {
    figures[`metric ${line.split(' ')[0]}`] = Number(line.split(' ').pop());
  }
}

await buildServerIfStale();
const template = await seedTemplate(!ONLY_CATCH_UP);
const broker = await startMosquitto();
let quota: CpuQuota | null = null;
try {
  console.log('full speed (baseline) ...');
  const run = ONLY_START ? coldStarts : ONLY_CATCH_UP ? catchUpFigures : runOnce;
  const full = QUOTA_ONLY ? {} : await run(template, broker, null);
  if (!FULL_ONLY && !piCoreAvailable()) throw new Error('the Pi-core run needs root and the cgroup v1 cpu controller at /sys/fs/cgroup/cpu');
  if (!FULL_ONLY) {
    quota = createCpuQuota('greenhouse-pi-core', undefined, undefined, PI_CORE_CPUS);
    keepOffGatewayCpus(PI_CORE_CPUS, [process.pid, broker.pid()].filter((pid) => pid !== undefined));
  }
  if (quota) console.log(`Pi core (${quota.dir}: 1250 µs per 10000 µs, ${PI_CORE_CPUS === null ? 'all CPUs' : `CPU ${PI_CORE_CPUS}`}) ...`);
  const pi = quota ? await run(template, broker, quota) : {};
  console.log(`\nfigure                                  | full speed | Pi core (12.5 %) | Pi core / full`);
  for (const key of Object.keys({ ...full, ...pi })) {
    const a = full[key] ?? Number.NaN;
    const b = pi[key] ?? Number.NaN;
    console.log(`${key.padEnd(39)} | ${fmt(a).padStart(10)} | ${fmt(b).padStart(16)} | ${a ? `${fmt(b / a, 2)}x` : '-'}`);
  }
} finally {
  quota?.remove();
  await broker.dispose();
  rmSync(template, { recursive: true, force: true });
}
// esbuild's service (from the build check) keeps the process alive once everything else is done.
process.exit(process.exitCode ?? 0);
