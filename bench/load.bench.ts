import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import WebSocket from 'ws';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../scripts/build-server.mjs';
import { httpClient, registerUser } from '../tests/support/http.ts';
import { startServerProcess } from '../tests/support/server-process.ts';
import { idleProfile, percentile, sampleProc } from './proc-stats.ts';

/**
 * The appliance under load, in one run: the real server process as the unit runs it (the compiled
 * dist/server/main.js with plain node; simulator, sampling every second), 100 websocket clients that
 * must each get every sample, and autocannon on the read routes over loopback. Idle RSS and CPU are set against a bare Node.js process measured in the same run.
 */
const CLIENTS = 100;
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const IDLE_MS = 10_000;
const READ_ROUTES = [
  '/api/health',
  '/api/devices/default',
  '/api/devices/stats/default',
  '/api/settings/default',
  '/api/sensors/latest/default',
  '/api/alerts/active/default',
];

interface Client {
  socket: WebSocket;
  /** sample timestamp -> arrival latency ms */
  samples: Map<string, number>;
}

function connect(url: string, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    const client: Client = { socket, samples: new Map() };
    socket.on('error', reject);
    // A socket the gateway refuses (4401, 4429) fails the bench instead of hanging it.
    socket.on('close', (code) => reject(new Error(`websocket closed with ${code} before joining`)));
    socket.on('open', () => socket.send(JSON.stringify({ event: 'authenticate', data: { token } })));
    socket.on('message', (raw) => {
      const arrivedAt = Date.now();
      const message = JSON.parse(raw.toString()) as { event: string; data: { timestamp?: string } };
      if (message.event === 'authenticated') socket.send(JSON.stringify({ event: 'join-greenhouse', data: 'default' }));
      else if (message.event === 'greenhouse-joined') resolve(client);
      else if (message.event === 'allSensorsUpdate' && message.data.timestamp) {
        client.samples.set(message.data.timestamp, arrivedAt - Date.parse(message.data.timestamp));
      }
    });
  });
}

async function bareNodeIdle(): Promise<{ cpuPercent: number; rssMb: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    return await idleProfile(child.pid!, IDLE_MS);
  } finally {
    child.kill('SIGKILL');
  }
}

async function runLoadBench(): Promise<Record<string, string | number>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-bench-'));
  await buildServerIfStale();
  const server = await startServerProcess({ GREENHOUSE_DATA_DIR: dataDir, GREENHOUSE_HARDWARE: 'simulator' }, 60_000, [SERVER_ENTRY]);
  const pid = server.child.pid!;
  try {
    const http = httpClient(server.url);
    const token = await registerUser(http, { username: 'bench-admin' });
    await http.put('/api/settings/default/system', { systemSettings: { updateInterval: 1 } }, token);
    const routes: string[] = [];
    for (const route of READ_ROUTES) if ((await http.get(route, token)).status === 200) routes.push(route);

    const [bare, gatewayIdle] = await Promise.all([bareNodeIdle(), idleProfile(pid, IDLE_MS)]);

    // At most 20 sockets per account (docs/decisions.md, Limits): the clients are spread over viewer accounts.
    const viewers: string[] = [];
    for (let i = 0; i < Math.ceil(CLIENTS / 20); i++) viewers.push(await registerUser(http, { username: `bench-viewer-${i}`, role: 'viewer' }, token));
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => connect(server.url, viewers[i % viewers.length]!)));
    const loadStartedAt = Date.now();
    let peakRssBytes = 0;
    const rssPoll = setInterval(() => (peakRssBytes = Math.max(peakRssBytes, sampleProc(pid).rssBytes)), 200);
    const result = await autocannon({
      url: server.url,
      connections: 20,
      duration: LOAD_SECONDS,
      headers: { authorization: `Bearer ${token}` },
      requests: routes.map((path) => ({ method: 'GET', path })),
    });
    clearInterval(rssPoll);
    // Let the last sample of the window reach everyone before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const loadEndedAt = Date.now() - 1_500;

    // Every sample taken during the load (seen by any client) must have reached every client.
    const window = (ts: string) => Date.parse(ts) >= loadStartedAt && Date.parse(ts) <= loadEndedAt;
    const allSamples = new Set(clients.flatMap((c) => [...c.samples.keys()].filter(window)));
    let missed = 0;
    const latencies: number[] = [];
    for (const client of clients) {
      for (const ts of allSamples) {
        const latency = client.samples.get(ts);
        if (latency === undefined) missed++;
        else latencies.push(latency);
      }
      client.socket.close();
    }
    return {
      'routes under load': routes.length,
      'HTTP requests/s': Math.round(result.requests.average),
      'HTTP p99 latency ms': result.latency.p99,
      'HTTP errors + non-2xx': result.errors + result.non2xx,
      'websocket clients': CLIENTS,
      'samples during load': allSamples.size,
      'websocket sample-to-client p99 ms': allSamples.size ? percentile(latencies, 99) : 'n/a (no sampler yet)',
      'missed samples (must be 0)': missed,
      'peak RSS under load MB': Math.round(peakRssBytes / 2 ** 20),
      'idle RSS gateway MB': Math.round(gatewayIdle.rssMb),
      'idle RSS bare node MB': Math.round(bare.rssMb),
      'idle RSS ratio gateway/bare': Number((gatewayIdle.rssMb / bare.rssMb).toFixed(1)),
      'idle CPU gateway % of a core': Number(gatewayIdle.cpuPercent.toFixed(2)),
      'idle CPU bare node % of a core': Number(bare.cpuPercent.toFixed(2)),
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const figures = await runLoadBench();
console.table(figures);
if (figures['missed samples (must be 0)'] !== 0) process.exitCode = 1;
