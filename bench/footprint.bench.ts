// Footprint of the appliance's process, side by side in one run (docs/decisions.md: ratios against a baseline
// measured beside it): a bare Node.js process, the gateway as the unit ran it before the production
// build (`node --import tsx server/main.ts`: "before") and the compiled gateway the unit runs now
// (`node dist/server/main.js`: "after"). For each: cold start (spawn until /api/health answers; the
// bare process until it prints), idle RSS once settled, and peak RSS (VmHWM) after a burst of requests.
// Simulator mode as the appliance runs it (demo off, the unit's MALLOC_ARENA_MAX=2, HTTPS on beside HTTP
// as systemd/greenhouse-gateway.service turns it on), loopback only. Each run's data dir is new and the
// gateway is started on it once before it is measured: what is measured is a restart, as nearly every
// start of an appliance is (a first start also makes the database and issues the certificates).
//
//   npx tsx bench/footprint.bench.ts [runs]      (npm run bench runs it too; builds dist/ when stale)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../scripts/build-server.mjs';
import { freePort } from '../tests/support/server-process.ts';
import { sampleProc } from './proc-stats.ts';
import { median } from './figures.ts';

const ROOT = join(import.meta.dirname, '..');
const RUNS = Number(process.argv[2] ?? 3);
/** After start-up, how long a process is left alone before its idle RSS is read. */
const SETTLE_MS = 10_000;
const BURST_REQUESTS = 300;

interface Variant {
  name: string;
  args: string[];
  /** Resolves once the process is ready to serve (or, for bare node, running). */
  ready(child: ChildProcess, url: string): Promise<void>;
  /** Starts it once on the data dir before the measured start: the installation's first start. */
  installFirst?: boolean;
  burst?(url: string, dataDir: string): Promise<void>;
}

interface Result {
  coldStartMs: number;
  idleRssMb: number;
  peakRssMb: number;
}


async function untilHealthy(child: ChildProcess, url: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before answering`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
}

/**
 * Creates the first account (as a new install does, with the setup code the gateway wrote to its data
 * dir) and reads what the dashboard reads, many times over.
 */
async function gatewayBurst(url: string, dataDir: string): Promise<void> {
  const setupFile = join(dataDir, 'setup-code');
  const setupCode = existsSync(setupFile) ? readFileSync(setupFile, 'utf8').trim() : undefined;
  const register = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench-admin', email: 'bench@greenhouse.local', password: 'correct-horse-1', ...(setupCode ? { setupCode } : {}) }),
  });
  const { token } = (await register.json()) as { token: string };
  if (!token) throw new Error(`registration failed: ${register.status}`);
  const headers = { authorization: `Bearer ${token}` };
  const paths = ['/api/health', '/api/sensors/latest/default', '/api/devices/default', '/api/sensors/historical/default?hours=24', '/api/alerts/active/default'];
  for (let i = 0; i < BURST_REQUESTS; i += 10) {
    await Promise.all(Array.from({ length: 10 }, (_, j) => fetch(`${url}${paths[(i + j) % paths.length]}`, { headers }).then((r) => r.arrayBuffer())));
  }
}

const VARIANTS: Variant[] = [
  {
    name: 'bare node',
    args: ['-e', "console.log('ready'); setInterval(() => {}, 1 << 30)"],
    ready: (child) => new Promise((resolve) => child.stdout!.once('data', () => resolve())),
  },
  { name: 'before: tsx sources', args: ['--import', 'tsx', 'server/main.ts'], ready: untilHealthy, installFirst: true, burst: gatewayBurst },
  { name: 'after: compiled', args: [SERVER_ENTRY], ready: untilHealthy, installFirst: true, burst: gatewayBurst },
];

function spawnVariant(variant: Variant, port: number, dataDir: string): ChildProcess {
  return spawn(process.execPath, variant.args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), GREENHOUSE_DATA_DIR: dataDir, GREENHOUSE_DEMO: '0', LOG_LEVEL: 'warn', MALLOC_ARENA_MAX: '2', HTTPS_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('close', resolve));
}

async function measure(variant: Variant): Promise<Result> {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-footprint-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  if (variant.installFirst) {
    const first = spawnVariant(variant, port, dataDir);
    await variant.ready(first, url);
    await stopChild(first);
  }
  const startedAt = performance.now();
  const child = spawnVariant(variant, port, dataDir);
  try {
    await variant.ready(child, url);
    const coldStartMs = performance.now() - startedAt;
    await sleep(SETTLE_MS);
    const idle = sampleProc(child.pid!);
    await variant.burst?.(url, dataDir);
    const peak = sampleProc(child.pid!);
    return { coldStartMs, idleRssMb: idle.rssBytes / 2 ** 20, peakRssMb: peak.peakRssBytes / 2 ** 20 };
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}


await buildServerIfStale();

const results = new Map<string, Result[]>();
// Interleaved, so a noisy moment on a shared machine hits every variant alike.
for (let run = 0; run < RUNS; run++) {
  for (const variant of VARIANTS) results.set(variant.name, [...(results.get(variant.name) ?? []), await measure(variant)]);
}

const summary = VARIANTS.map((variant) => {
  const runs = results.get(variant.name)!;
  return {
    name: variant.name,
    coldStartMs: median(runs.map((r) => r.coldStartMs)),
    idleRssMb: median(runs.map((r) => r.idleRssMb)),
    peakRssMb: median(runs.map((r) => r.peakRssMb)),
  };
});
const bare = summary[0]!;
console.log(`footprint, median of ${RUNS} interleaved runs (idle after ${SETTLE_MS / 1000} s; peak after ${BURST_REQUESTS} requests)`);
console.log('variant                 cold start        idle RSS            peak RSS');
for (const row of summary) {
  console.log(
    `${row.name.padEnd(22)} ${row.coldStartMs.toFixed(0).padStart(6)} ms ${`(${(row.coldStartMs / bare.coldStartMs).toFixed(1)}x)`.padStart(7)}  ` +
      `${row.idleRssMb.toFixed(1).padStart(6)} MB ${`(${(row.idleRssMb / bare.idleRssMb).toFixed(2)}x)`.padStart(8)}  ` +
      `${row.peakRssMb.toFixed(1).padStart(6)} MB ${`(${(row.peakRssMb / bare.peakRssMb).toFixed(2)}x)`.padStart(8)}`,
  );
}
const after = summary[2]!;
console.log(`idle RSS of the compiled gateway: ${(after.idleRssMb / bare.idleRssMb).toFixed(2)}x bare node (target <= 1.5x, docs/performance.md)`);
