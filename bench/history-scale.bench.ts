// History at scale: for a week and a month of 1 Hz readings, each history call (historical,
// stats, hourly) for 1 h and for the longest range, before (raw scan) and after (rollups), in the same
// run; the worst event-loop delay (perf_hooks.monitorEventLoopDelay) while six clients load the longest
// range (and Last Week, the issue's scenario) over HTTP; the rollups' catch-up over raw-only data; and the database size per month at the
// default 5 s interval.
//
//   npx tsx bench/history-scale.bench.ts          BENCH_SIZES=week for the week only
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { ManualClock } from '../common/clock.ts';
import { HISTORY_RANGES_HOURS } from '../server/contract/reading.ts';
import { openDatabase, type OpenedDatabase } from '../server/db/open.ts';
import { RollupCatchUp } from '../server/history/rollup-catch-up.ts';
import { RollupWriter } from '../server/history/rollup-writer.ts';
import { ReadingsRepo } from '../server/sensors/readings-repo.ts';
import { sensorRoutes } from '../server/sensors/routes.ts';
import { RawHistoryBaseline } from './raw-history-baseline.ts';
import { BENCH_GREENHOUSE as G, seedRawReadings } from './seed-readings.ts';
import { fmt, median } from './figures.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const DAY_S = 86_400;
const LONGEST_HOURS = Math.max(...HISTORY_RANGES_HOURS);
const WEEK_HOURS = 168;
const CALLS = ['historical', 'stats', 'hourly'] as const;
const CLIENTS = 6;
const SIZES = { week: 7 * DAY_S, month: 30 * DAY_S };
const wanted = (process.env.BENCH_SIZES ?? 'week,month').split(',') as Array<keyof typeof SIZES>;
const MiB = 1024 * 1024;

const benchDir = (name: string) => mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), `bench-${name}-`));

function fileBytes(database: OpenedDatabase): number {
  database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return statSync(database.path).size;
}

type HistoryCalls = Pick<ReadingsRepo, 'historical' | 'stats' | 'hourly'>;

function call(repo: HistoryCalls, name: (typeof CALLS)[number], hours: number) {
  if (name === 'historical') return repo.historical(G, hours, NOW);
  if (name === 'stats') return repo.stats(G, hours, NOW);
  return repo.hourly(G, hours, NOW);
}

/** Median ms of a call, serialised as the route would (runs: fewer for the slow raw scans). */
function timeCall(repo: HistoryCalls, name: (typeof CALLS)[number], hours: number, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    JSON.stringify(call(repo, name, hours));
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The /api/sensors routes on their own Fastify instance (no auth: the same for both sides). */
async function serve(repo: HistoryCalls, historyReady: () => Promise<void>) {
  const clock = new ManualClock(NOW);
  // Long keep-alive: a raw scan holds the loop for seconds, and an idle socket closed meanwhile would
  // reset the next request of a client.
  const app = Fastify({ keepAliveTimeout: 10 * 60_000, requestTimeout: 0 });
  await app.register(sensorRoutes, { prefix: '/api/sensors', repo: repo as ReadingsRepo, clock, historyReady, ppfdPerLux: 0.0185, sampler: { instances: () => [], zoneFault: () => null } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${port}` };
}

/** Six dashboards open the longest range at once (`calls` each, one after the other). */
async function sixClients(url: string, calls: readonly (typeof CALLS)[number][], hours: number): Promise<{ wallMs: number; worstLoopMs: number; p99LoopMs: number }> {
  const monitor = monitorEventLoopDelay({ resolution: 5 });
  monitor.enable();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (const name of calls) {
        const res = await fetch(`${url}/api/sensors/${name}/${G}?hours=${hours}`);
        if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  const wallMs = performance.now() - started;
  monitor.disable();
  return { wallMs, worstLoopMs: monitor.max / 1e6, p99LoopMs: monitor.percentile(99) / 1e6 };
}

async function benchSize(label: keyof typeof SIZES) {
  const seconds = SIZES[label];
  const dir = benchDir(`history-${label}`);
  const database = openDatabase(dir);
  try {
    const seedStarted = performance.now();
    const rows = seedRawReadings(database.sqlite, { seconds, stepS: 1, endMs: NOW });
    console.log(`\n## ${label} of 1 Hz data: ${fmt(rows, 0)} rows, ${fmt(fileBytes(database) / MiB)} MiB (seeded in ${fmt((performance.now() - seedStarted) / 1000)} s)`);

    // Before: the queries as they were, over raw rows.
    const raw = new RawHistoryBaseline(database.sqlite);
    const before = Object.fromEntries(CALLS.map((name) => [name, { hour: timeCall(raw, name, 1, 5), longest: timeCall(raw, name, LONGEST_HOURS, 1) }]));
    console.log(`before, ms (1 h / ${LONGEST_HOURS} h): ${CALLS.map((n) => `${n} ${fmt(before[n]!.hour)} / ${fmt(before[n]!.longest)}`).join(', ')}`);
    const rawServer = await serve(raw, () => Promise.resolve());
    // One call per client before: each raw scan holds the loop for its whole duration anyway, and three
    // each would take minutes on a month.
    const loadBefore = await sixClients(rawServer.url, ['historical'], WEEK_HOURS);
    await rawServer.app.close();

    // The rollups catch up from the watermark, in slices, while a timer probe watches the event loop.
    const writer = new RollupWriter(database.sqlite);
    const catchUp = new RollupCatchUp({ writer });
    const monitor = monitorEventLoopDelay({ resolution: 5 });
    monitor.enable();
    const catchUpStarted = performance.now();
    catchUp.start();
    await catchUp.whenCurrent();
    writer.foldPending();
    const catchUpMs = performance.now() - catchUpStarted;
    monitor.disable();
    await catchUp.stop();
    console.log(`rollups caught up from raw rows in ${fmt(catchUpMs / 1000)} s (${fmt(rows / (catchUpMs / 1000), 0)} rows/s); worst event-loop delay meanwhile ${fmt(monitor.max / 1e6)} ms`);

    // After: rollups.
    const repo = new ReadingsRepo(database.sqlite);
    const after = Object.fromEntries(CALLS.map((name) => [name, { hour: timeCall(repo, name, 1, 9), longest: timeCall(repo, name, LONGEST_HOURS, 9) }]));
    const server = await serve(repo, () => catchUp.whenCurrent());
    await sixClients(server.url, CALLS, WEEK_HOURS); // warm-up (statement cache, JIT), as a dashboard already open would be
    const loadAfter = await sixClients(server.url, CALLS, WEEK_HOURS);
    const loadAfterLongest = await sixClients(server.url, CALLS, LONGEST_HOURS);
    await server.app.close();

    console.log(`call         | before: 1 h   ${LONGEST_HOURS} h     ratio | after: 1 h   ${LONGEST_HOURS} h   ratio | ${LONGEST_HOURS} h before/after`);
    for (const name of CALLS) {
      const b = before[name]!;
      const a = after[name]!;
      console.log(
        `${name.padEnd(12)} | ${fmt(b.hour).padStart(9)} ms ${fmt(b.longest).padStart(8)} ms ${fmt(b.longest / b.hour).padStart(6)}x |` +
          ` ${fmt(a.hour).padStart(7)} ms ${fmt(a.longest).padStart(5)} ms ${fmt(a.longest / a.hour).padStart(5)}x | ${fmt(b.longest / a.longest).padStart(6)}x faster`,
      );
    }
    const load = (l: { wallMs: number; worstLoopMs: number; p99LoopMs: number }) => `${fmt(l.wallMs)} ms, worst event-loop delay ${fmt(l.worstLoopMs)} ms (p99 ${fmt(l.p99LoopMs)})`;
    console.log(`${CLIENTS} clients open Last Week (${WEEK_HOURS} h) at once:`);
    console.log(`  before, one historical call each:                 ${load(loadBefore)}`);
    console.log(`  after, historical + stats + hourly each:          ${load(loadAfter)} -> worst delay ${fmt(loadBefore.worstLoopMs / loadAfter.worstLoopMs)}x less`);
    console.log(`  after, the longest range (${LONGEST_HOURS} h), all three each: ${load(loadAfterLongest)}`);
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A month at the default 5 s interval: raw only (before), raw + rollups, and the rollups kept for years. */
async function benchSizePerMonth() {
  const dir = benchDir('history-size');
  const database = openDatabase(dir);
  try {
    const emptyBytes = fileBytes(database);
    const rows = seedRawReadings(database.sqlite, { seconds: 30 * DAY_S, stepS: 5, endMs: NOW });
    const rawBytes = fileBytes(database) - emptyBytes;
    const writer = new RollupWriter(database.sqlite);
    writer.foldPending();
    const withRollupsBytes = fileBytes(database) - emptyBytes;
    const count = (resolutionMs: number) => database.sqlite.prepare('SELECT count(*) FROM reading_rollups WHERE resolution_ms = ?').pluck().get(resolutionMs) as number;
    const levels = [60_000, 300_000, 3_600_000].map((r) => `${r / 60_000} min: ${fmt(count(r), 0)}`).join(', ');
    // What stays after raw retention and the fine levels' horizons: the hourly rollups only.
    database.sqlite.exec('DELETE FROM readings; DELETE FROM reading_rollups WHERE resolution_ms < 3600000; VACUUM;');
    const keptBytes = fileBytes(database) - emptyBytes;
    console.log(`\n## database size per month at the default 5 s interval (4 sensors, ${fmt(rows, 0)} rows)`);
    console.log(`before (raw rows only):            ${fmt(rawBytes / MiB)} MiB per month`);
    console.log(`after (raw rows + rollups):        ${fmt(withRollupsBytes / MiB)} MiB per month (+${fmt(((withRollupsBytes - rawBytes) / rawBytes) * 100)} %; rollup rows ${levels})`);
    console.log(`kept for years (hourly rollups):   ${fmt(keptBytes / 1024)} KiB per month, ${fmt((keptBytes * 12) / MiB)} MiB per year`);
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const size of wanted) if (size in SIZES) await benchSize(size);
await benchSizePerMonth();
