// A SIGTERM at the gateway's first health answer, while it still loads what can wait (mqtt.js for a
// configured broker; server/features.ts, `serving`): the stop must run, outputs safe and exit 0. The
// signal once arrived in the moment our listeners were swapped after start (server/appliance/lifecycle.ts)
// and was lost: the gateway ran on until systemd's SIGKILL.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../../scripts/build-server.mjs';
import { freePort, simulatorGatewayEnv } from '../support/server-process.ts';

const STOP_WITHIN_MS = 15_000;

async function termAtFirstHealth(dataDir: string): Promise<{ exit: { code: number | null; signal: string | null }; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    // Nothing listens on the discard port: the bridge dials, fails and retries; the stop ends that.
    env: simulatorGatewayEnv(port, dataDir, 'mqtt://gateway:secret@127.0.0.1:9', 'info'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited at start:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
  const exit = await exited;
  clearTimeout(timer);
  return { exit, output };
}

describe('a SIGTERM as soon as the gateway answers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-early-stop-'));
  beforeAll(async () => {
    await buildServerIfStale();
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops it cleanly, every time (a broker configured, its client still loading)', { timeout: 120_000 }, async () => {
    for (let run = 0; run < 3; run++) {
      const { exit, output } = await termAtFirstHealth(join(dir, `data-${run}`));
      expect(exit, output).toEqual({ code: 0, signal: null });
      expect(output).toContain('outputs in their safe state');
      expect(output).toContain('stopped cleanly');
    }
  });
});
