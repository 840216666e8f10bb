// The rule preview and the light integral over a week of readings at the default 5 s interval
// (BENCH_INTERVAL_S; 120,960 rows per sensor type). The preview replays the rule engine over raw rows on
// the request's thread, so its time is time the event loop is held: it is reported beside the 168 h
// history chart (served from rollups) and a bare scan of the same DHT11 rows, measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../common/clock.ts';
import { createGateway } from '../server/gateway.ts';
import { httpClient, registerUser } from '../tests/support/http.ts';

const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 5);
const HOUR_MS = 3_600_000;
const ROWS = Math.floor((168 * HOUR_MS) / (INTERVAL_S * 1000));

function seed(sqlite: import('better-sqlite3').Database, nowMs: number): void {
  const insert = sqlite.prepare(
    `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm)
     VALUES ('greenhouse-001', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const t = nowMs - (ROWS - i) * INTERVAL_S * 1000;
      const phase = (t / 86_400_000) * 2 * Math.PI;
      // Whole degrees, as a DHT11 reads: a rule at 18 °C switches a few times a day.
      insert.run('DHT11', t, Math.round(18 + 4 * Math.sin(phase)), Math.round(65 + 10 * Math.cos(phase)), null, null, null);
      insert.run('LDR', t, null, null, Math.max(0, 40_000 * Math.sin(phase)), null, null);
    }
  });
  for (let from = 0; from < ROWS; from += 50_000) batch(from, Math.min(ROWS, from + 50_000));
}

async function median(runs: number, call: () => Promise<number>): Promise<{ ms: number; status: number }> {
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    status = await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, status };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-bench-'));
  const clock = new ManualClock(Date.UTC(2026, 5, 8, 12));
  const gateway = await createGateway({ env: {}, overrides: { dataDir, port: 0, host: '127.0.0.1', demo: false }, clock, webRoot: null });
  try {
    seed(gateway.database.sqlite, clock.now());
    console.log(`seeded ${ROWS} rows x 2 sensor types (a week at ${INTERVAL_S} s)`);
    await gateway.start();
    const http = httpClient(gateway.url);
    const token = await registerUser(http, { username: 'bench' });
    await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, token);
    // Let the rollups catch up before timing anything that reads them.
    await http.get('/api/sensors/historical/greenhouse-001?hours=168', token);

    const scan = await median(5, async () => {
      const rows = gateway.database.sqlite.prepare(`SELECT taken_at, temperature_c FROM readings WHERE sensor_type = 'DHT11' AND taken_at >= ?`).raw();
      let n = 0;
      for (const _row of rows.iterate(clock.now() - 168 * HOUR_MS)) n++;
      return n === ROWS ? 200 : 500;
    });
    const chart = await median(5, async () => (await http.get('/api/sensors/historical/greenhouse-001?hours=168', token)).status);
    const preview = (hours: number) =>
      median(5, async () => (await http.post('/api/devices/heater-1/automation/preview', { automationRules: { temperatureLow: 18 }, hours }, token)).status);
    const day = await preview(24);
    const week = await preview(168);
    // The longest the event loop was held while a week's preview ran (it replays in pages).
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    await http.post('/api/devices/heater-1/automation/preview', { automationRules: { temperatureLow: 18 }, hours: 168 }, token);
    lag.disable();
    const maxBlockMs = lag.max / 1e6;
    // Baseline: the same monitor over an idle wait as long (a shared machine preempts us too).
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await new Promise((resolve) => setTimeout(resolve, week.ms));
    idle.disable();
    const idleBlockMs = idle.max / 1e6;
    const dli = await median(5, async () => (await http.get('/api/sensors/light-integral/greenhouse-001?days=7', token)).status);
    const answer = (await http.post('/api/devices/heater-1/automation/preview', { automationRules: { temperatureLow: 18 }, hours: 168 }, token)).body.data;

    console.log('\nmedian of 5 (ms):');
    console.log(`  bare scan of a week of DHT11 rows   ${scan.ms.toFixed(1)}`);
    console.log(`  history chart 168 h (rollups)       ${chart.ms.toFixed(1)}  (HTTP ${chart.status})`);
    console.log(`  preview 24 h                        ${day.ms.toFixed(1)}  (HTTP ${day.status})`);
    console.log(`  preview 168 h                       ${week.ms.toFixed(1)}  (HTTP ${week.status}; ${answer.switches} switches)`);
    console.log(`  light integral 7 days               ${dli.ms.toFixed(1)}  (HTTP ${dli.status})`);
    console.log(`  longest event-loop block during a week's preview: ${maxBlockMs.toFixed(1)} ms; idle baseline over as long: ${idleBlockMs.toFixed(1)} ms`);
    console.log(`ratios: preview 168 h / bare scan ${(week.ms / scan.ms).toFixed(2)}; preview 168 h / 24 h ${(week.ms / day.ms).toFixed(2)}; ` +
      `preview 168 h / chart 168 h ${(week.ms / chart.ms).toFixed(2)}; light integral / chart ${(dli.ms / chart.ms).toFixed(2)}`);
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
