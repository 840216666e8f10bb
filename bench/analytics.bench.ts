// Analytics over a week of 1 Hz data (BENCH_ROWS_PER_SENSOR rows per sensor type, default 604 800):
// the sensors API's stats / hourly / historical calls, and the CSV export's peak memory for 24 h vs
// 168 h against the bytes it sends. The streamed export's memory must stay flat as the range grows;
// a same-process baseline that loads the 24 h rows at once (better-sqlite3 .all()) shows the difference.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../common/clock.ts';
import { csvLine } from '../server/analytics/csv-format.ts';
import { createGateway } from '../server/gateway.ts';
import { httpClient, registerUser } from '../tests/support/http.ts';

const ROWS_PER_SENSOR = Number(process.env.BENCH_ROWS_PER_SENSOR ?? 604_800);
const HOUR_MS = 3_600_000;
const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function seed(sqlite: import('better-sqlite3').Database, nowMs: number): void {
  const stepMs = Math.max(1, Math.floor((168 * HOUR_MS) / ROWS_PER_SENSOR));
  const insert = sqlite.prepare(
    `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm)
     VALUES ('greenhouse-001', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const t = nowMs - (ROWS_PER_SENSOR - i) * stepMs;
      const phase = (t / 86_400_000) * 2 * Math.PI;
      insert.run('DHT11', t, 20 + 5 * Math.sin(phase), 60 + 10 * Math.cos(phase), null, null, null);
      insert.run('LDR', t, null, null, Math.max(0, 800 * Math.sin(phase)), null, null);
      insert.run('SOIL_MOISTURE', t, null, null, null, 40 + 5 * Math.sin(phase / 3), null);
      insert.run('WATER_LEVEL', t, null, null, null, null, 30 - (i % 1000) / 100);
    }
  });
  for (let from = 0; from < ROWS_PER_SENSOR; from += 50_000) batch(from, Math.min(ROWS_PER_SENSOR, from + 50_000));
}

/**
 * Samples memory while `work` runs; returns the peaks above the level before it started. The heap is
 * sampled right after a forced GC (every 100 ms), so it measures what is held, not garbage waiting for
 * collection: a stream that buffered the file would show here. RSS is sampled as it is.
 */
async function peakMemory<T>(work: (sample: () => void) => Promise<T>): Promise<{ result: T; rssMb: number; heapMb: number; ms: number }> {
  gc();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const sample = () => {
    gc();
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 100);
  const started = performance.now();
  try {
    const result = await work(sample);
    sample();
    return { result, rssMb: (rss - base.rss) / MB, heapMb: (heap - base.heapUsed) / MB, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

async function streamExport(url: string, token: string, hours: number): Promise<number> {
  const response = await fetch(`${url}/api/analytics/export/greenhouse-001?hours=${hours}`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`export ${hours}h: ${response.status}`);
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return bytes;
    bytes += chunk.value.byteLength; // discarded: the client side must not hold the file either
  }
}

async function timeCall(http: ReturnType<typeof httpClient>, path: string, token: string, runs = 5) {
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    status = (await http.get(path, token)).status;
    times.push(performance.now() - started);
    if (status !== 200) break;
  }
  times.sort((a, b) => a - b);
  return { status, medianMs: times[Math.floor(times.length / 2)]! };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-bench-'));
  const clock = new ManualClock(Date.UTC(2026, 5, 8, 12));
  const gateway = await createGateway({ env: {}, overrides: { dataDir, port: 0, host: '127.0.0.1', demo: false }, clock, webRoot: null });
  try {
    const seedStart = performance.now();
    seed(gateway.database.sqlite, clock.now());
    console.log(`seeded ${ROWS_PER_SENSOR} rows x 4 sensor types in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    await gateway.start();
    const http = httpClient(gateway.url);
    const token = await registerUser(http, { username: 'bench' });

    console.log('\nAPI calls (median of 5):');
    const calls: Array<[string, string]> = [
      ['stats 24 h', '/api/sensors/stats/greenhouse-001?hours=24'],
      ['stats 168 h', '/api/sensors/stats/greenhouse-001?hours=168'],
      ['hourly 24 h', '/api/sensors/hourly/greenhouse-001?hours=24'],
      ['hourly 168 h', '/api/sensors/hourly/greenhouse-001?hours=168'],
      ['historical 24 h', '/api/sensors/historical/greenhouse-001?hours=24'],
      ['historical 168 h', '/api/sensors/historical/greenhouse-001?hours=168'],
    ];
    const medians: Record<string, number> = {};
    for (const [name, path] of calls) {
      const { status, medianMs } = await timeCall(http, path, token);
      if (status === 200) medians[name] = medianMs;
      console.log(`  ${name.padEnd(18)} ${status === 200 ? `${medianMs.toFixed(1)} ms` : `n/a (HTTP ${status}: not in this build)`}`);
    }
    for (const kind of ['stats', 'hourly', 'historical']) {
      const [day, week] = [medians[`${kind} 24 h`], medians[`${kind} 168 h`]];
      if (day && week) console.log(`  ${kind}: 168 h / 24 h time ratio ${(week / day).toFixed(2)}`);
    }

    console.log('\nCSV export (streamed), throughput without memory sampling:');
    for (const hours of [24, 168]) {
      const started = performance.now();
      const bytes = await streamExport(gateway.url, token, hours);
      const seconds = (performance.now() - started) / 1000;
      console.log(`  ${`${hours} h`.padEnd(6)} ${(bytes / MB).toFixed(1).padStart(7)} MB in ${seconds.toFixed(2)} s (${(bytes / MB / seconds).toFixed(1)} MB/s)`);
    }
    console.log('CSV export memory (GC forced every 100 ms, which slows it):');
    // The longer range first, so the shorter one cannot look small only because the heap grew before it.
    const week = await peakMemory(() => streamExport(gateway.url, token, 168));
    const day = await peakMemory(() => streamExport(gateway.url, token, 24));
    for (const [label, r] of [['24 h', day], ['168 h', week]] as const) {
      console.log(
        `  ${label.padEnd(6)} ${(r.result / MB).toFixed(1).padStart(7)} MB sent in ${(r.ms / 1000).toFixed(2)} s ` +
          `(${(r.result / MB / (r.ms / 1000)).toFixed(1)} MB/s); peak RSS +${r.rssMb.toFixed(1)} MB, live heap +${r.heapMb.toFixed(1)} MB`,
      );
    }
    console.log(
      `  size ratio 168/24 h: ${(week.result / day.result).toFixed(2)}; peak RSS ratio: ${(Math.max(week.rssMb, 0.1) / Math.max(day.rssMb, 0.1)).toFixed(2)}; ` +
        `live heap held as a share of the bytes sent: 24 h ${((day.heapMb * MB * 100) / day.result).toFixed(2)} %, 168 h ${((week.heapMb * MB * 100) / week.result).toFixed(2)} %`,
    );

    // Baseline in the same process: the 24 h range loaded at once, as a non-streaming export would.
    const loaded = await peakMemory(async (sample) => {
      const rows = gateway.database.sqlite
        .prepare(
          `SELECT taken_at, sensor_type, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm FROM readings
           WHERE greenhouse_id = 'greenhouse-001' AND taken_at >= ? ORDER BY taken_at, id`,
        )
        .raw()
        .all(clock.now() - 24 * HOUR_MS) as Parameters<typeof csvLine>[0][];
      const csv = rows.map(csvLine).join('');
      sample(); // synchronous work: sample while the rows and the text are still held
      return Buffer.byteLength(csv);
    });
    console.log(
      `  baseline (24 h loaded at once): ${(loaded.result / MB).toFixed(1)} MB, peak live heap +${loaded.heapMb.toFixed(1)} MB ` +
        `-> streamed 24 h holds ${(day.heapMb / Math.max(loaded.heapMb, 0.1)).toPrecision(2)}x the baseline's heap`,
    );
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
