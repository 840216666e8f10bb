// The compiled gateway in a process of its own, as the unit runs it (`node dist/server/main.js`, HTTPS
// beside HTTP, the unit's MALLOC_ARENA_MAX), for the benches that watch it from outside: its pid for
// /proc, its url, and how long it took to answer its first health check.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
// @ts-expect-error plain JavaScript build script without type declarations
import { SERVER_ENTRY } from '../scripts/build-server.mjs';
import type { HttpClient } from '../tests/support/http.ts';
import { GATEWAY_CREDENTIALS } from '../tests/support/mosquitto.ts';
import { freePort, simulatorGatewayEnv } from '../tests/support/server-process.ts';
import type { CpuQuota } from './cpu-quota.ts';
import { sampleProc } from './proc-stats.ts';

export interface Gateway {
  pid: number;
  url: string;
  coldStartMs: number;
  /**
   * CPU time (all its threads) the gateway used up to its first health answer: on this shared machine
   * a far steadier figure than the wall time, and on one modelled core the wall time's floor (/ 0.125).
   */
  coldStartCpuMs: number;
  stop(): Promise<void>;
}

export interface GatewayOptions {
  /** Runs it inside this CPU quota (bench/cpu-quota.ts), start-up included. */
  quota?: CpuQuota | null;
  /** Node.js flags before the entry (experiments, --trace-gc). */
  nodeFlags?: readonly string[];
  /** The gateway writes a V8 .cpuprofile there when it stops. */
  cpuProfDir?: string;
  /** Each line of its standard output (with --trace-gc: its collections); ignored when absent. */
  onStdoutLine?: (line: string) => void;
  /** Its standard output on the bench's own (BENCH_GATEWAY_STDOUT=1). */
  showStdout?: boolean;
}


export async function startGateway(dataDir: string, brokerUrl: string, options: GatewayOptions = {}): Promise<Gateway> {
  const port = await freePort();
  const profile = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  const command = [process.execPath, ...(options.nodeFlags ?? []), ...profile, SERVER_ENTRY];
  const argv = options.quota ? options.quota.wrap(command) : command;
  const started = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    env: {
      // With credentials (in the url): without them the gateway ignores commands, and the burst ends on an answer.
      ...simulatorGatewayEnv(port, dataDir, brokerUrl.replace('mqtt://', `mqtt://${GATEWAY_CREDENTIALS.username}:${GATEWAY_CREDENTIALS.password}@`), 'warn'),
      // As the unit runs it (systemd/greenhouse-gateway.service): HTTPS beside HTTP (on a free port here).
      MALLOC_ARENA_MAX: '2',
      HTTPS_PORT: '0',
    },
    stdio: ['ignore', options.showStdout ? 'inherit' : options.onStdoutLine ? 'pipe' : 'ignore', 'pipe'],
  });
  if (options.onStdoutLine && !options.showStdout) {
    let partial = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) options.onStdoutLine!(line);
    });
  }
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // A gateway that dies inside a window says why, rather than leaving a bench that fails on its /proc files.
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`the gateway exited during the run (${signal ?? `code ${code}`}); its standard error ends:\n${output.slice(-8_000)}`);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gateway exited at start:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  const coldStartMs = performance.now() - started;
  const coldStartCpuMs = sampleProc(child.pid!).cpuSeconds * 1000;
  return {
    pid: child.pid!,
    url,
    coldStartMs,
    coldStartCpuMs,
    async stop() {
      stopping = true;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The first account of a fresh data dir (with its setup code), or of a copied one: the admin's token. */
export async function signUp(http: HttpClient, dataDir: string): Promise<string> {
  const setupFile = join(dataDir, 'setup-code');
  const setupCode = existsSync(setupFile) ? readFileSync(setupFile, 'utf8').trim() : undefined;
  const res = await http.post('/api/auth/register', { username: 'bench-admin', email: 'bench@example.com', password: 'correct-horse-1', ...(setupCode ? { setupCode } : {}) });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** The gateway's /api/metrics text (an admin's token). */
export async function scrapeMetrics(http: HttpClient, token: string): Promise<string> {
  return String((await http.get<string>('/api/metrics', token)).body);
}

/** One unlabelled figure (or the first series of a labelled one) from the metrics text; 0 when absent. */
export function metricValue(metricsText: string, name: string): number {
  return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)`, 'm').exec(metricsText)?.[1] ?? 0);
}

/**
 * The gateway's longest event-loop delay and its 99th percentile (ms) since the previous scrape; each
 * scrape resets both. The percentile says whether the longest was one rare hold or the window's norm.
 */
export async function loopLag(http: HttpClient, token: string): Promise<{ maxMs: number; p99Ms: number }> {
  const body = await scrapeMetrics(http, token);
  return { maxMs: metricValue(body, 'nodejs_eventloop_lag_max_seconds') * 1000, p99Ms: metricValue(body, 'nodejs_eventloop_lag_p99_seconds') * 1000 };
}
