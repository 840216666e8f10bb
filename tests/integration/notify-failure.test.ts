import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale } from '../../scripts/build-server.mjs';
import { startReceiver } from '../support/receivers.ts';
import { startTestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { freePort } from '../support/server-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const unit = (name: string) => readFileSync(join(ROOT, 'systemd', name), 'utf8');
/** Runs a command without blocking this process (the loopback receivers live in it). */
function run(command: string, args: string[], env: Record<string, string | undefined>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env }, (err, stdout, stderr) => {
      resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}
const directive = (text: string, key: string) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

describe('the OnFailure unit: systemd gave up on the gateway', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-onfailure-'));
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    await buildServerIfStale();
    receiver = await startReceiver({ kind: 'webhook', secret: 'on-failure-secret-16' });
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the gateway unit names the failure unit, which runs the compiled notifier with the same config and data dir', () => {
    const gateway = unit('greenhouse-gateway.service');
    const failure = unit('greenhouse-gateway-failure.service');
    expect(directive(gateway, 'OnFailure')).toEqual(['greenhouse-gateway-failure.service']);
    expect(directive(failure, 'ExecStart')).toEqual(['/usr/bin/node dist/server/notify-failure.js']);
    expect(directive(failure, 'WorkingDirectory')).toEqual(directive(gateway, 'WorkingDirectory'));
    for (const env of ['GREENHOUSE_CONFIG', 'GREENHOUSE_DATA_DIR']) {
      const line = (text: string) => directive(text, 'Environment').find((e) => e.startsWith(`${env}=`));
      expect(line(failure)).toBe(line(gateway));
    }
    expect(directive(failure, 'ReadWritePaths')).toContain('/var/lib/greenhouse-gateway');
  });

  it('sends a CRITICAL through every channel from the data dir; an unreachable one stays in the outbox for the gateway', async () => {
    const deadPort = await freePort();
    const gw = await startTestGateway({ dataDir });
    const http = httpClient(gw.url);
    const admin = await registerUser(http, { username: 'owner' });
    const channels = [
      { channelId: 'hook', kind: 'webhook', target: `${receiver.url}/hook`, minSeverity: 'CRITICAL', secret: 'on-failure-secret-16' },
      { channelId: 'down', kind: 'ntfy', target: `http://127.0.0.1:${deadPort}/greenhouse`, minSeverity: 'CRITICAL' },
    ];
    for (const c of channels) expect((await http.post('/api/notifications/channels', c, admin)).status).toBe(201);
    await gw.stop();

    // As systemd runs it: the unit's ExecStart from its WorkingDirectory, with the MONITOR_* variables.
    const [command, ...args] = directive(unit('greenhouse-gateway-failure.service'), 'ExecStart')[0]!.split(' ');
    const notified = await run(command === '/usr/bin/node' ? process.execPath : command!, args, {
      PATH: process.env.PATH,
      GREENHOUSE_DATA_DIR: dataDir,
      MONITOR_SERVICE_RESULT: 'start-limit-hit',
      MONITOR_EXIT_CODE: 'exited',
      MONITOR_EXIT_STATUS: '1',
    });
    expect(notified.status, notified.stdout + notified.stderr).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const sent = receiver.received[0]!;
    expect(sent.signatureValid).toBe(true);
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({ event: 'gateway-failure', severity: 'CRITICAL', greenhouseId: 'greenhouse-001', alert: null });
    expect(body.body).toContain('start-limit-hit');

    // The gateway, started again, finds the undelivered one pending in its outbox and the log shows both.
    const again = await startTestGateway({ dataDir });
    try {
      const client = httpClient(again.url);
      const token = (await client.post('/api/auth/login', { username: 'owner', password: 'correct-horse-1' })).body.token;
      await again.notifications.worker.idle();
      const log = (await client.get('/api/notifications/log', token)).body.data.filter((d: any) => d.reason === 'gateway-failure');
      const byChannel = Object.fromEntries(log.map((d: any) => [d.channelId, d]));
      expect(byChannel.hook).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(byChannel.down).toMatchObject({ status: 'pending', lastError: 'ECONNREFUSED' });
    } finally {
      await again.stop();
    }
  });

  it('exits 1 when no channel took the notice, so the journal shows the failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenhouse-onfailure-none-'));
    try {
      const gw = await startTestGateway({ dataDir: dir });
      const http = httpClient(gw.url);
      const admin = await registerUser(http, { username: 'owner' });
      const deadPort = await freePort();
      await http.post('/api/notifications/channels', { channelId: 'down', kind: 'webhook', target: `http://127.0.0.1:${deadPort}/x`, minSeverity: 'LOW' }, admin);
      await gw.stop();
      const notified = await run(process.execPath, ['dist/server/notify-failure.js'], { PATH: process.env.PATH, GREENHOUSE_DATA_DIR: dir });
      expect(notified.status, notified.stdout + notified.stderr).toBe(1);
      expect(notified.stdout).toContain('gateway failure notified');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
