import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { rememberDataDir } from './setup-code.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** A free loopback port (the gateway does not report the port it got from PORT=0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The environment of a simulator gateway on the loopback with its own data dir, as the benches and process tests start it. */
export function simulatorGatewayEnv(port: number, dataDir: string, mqttUrl: string, logLevel: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    GREENHOUSE_DATA_DIR: dataDir,
    GREENHOUSE_HARDWARE: 'simulator',
    GREENHOUSE_DEMO: '0',
    GREENHOUSE_MQTT_URL: mqttUrl,
    LOG_LEVEL: logLevel,
  };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The real gateway in its own process (by default from the TypeScript sources through tsx; pass
 * `nodeArgs` to run e.g. the compiled dist/server/main.js as the systemd unit does), resolved once
 * /api/health answers.
 */
export async function startServerProcess(
  env: Record<string, string>,
  startTimeoutMs = 60_000,
  nodeArgs: string[] = ['--import', 'tsx', 'server/main.ts'],
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), GREENHOUSE_DEMO: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close', not 'exit': the output pipes are drained by then, so failure messages are complete.
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  rememberDataDir(url, resolve(ROOT, env.GREENHOUSE_DATA_DIR ?? 'data'));
  const deadline = Date.now() + startTimeoutMs;
  let gone: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  void exited.then((how) => (gone = how));
  while (!gone && Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url, output: () => output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`gateway did not start (${gone ? `exited: ${JSON.stringify(gone)}` : 'timed out'}):\n${output}`);
}
