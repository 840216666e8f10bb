import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale } from '../../scripts/build-server.mjs';
import { DATABASE_FILE } from '../../server/db/open.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { bindDatagramReceiver, type DatagramReceiver } from '../support/notify-socket.ts';
import { buildPigpioSignalsAddon, PIGPIO_SIGNALS_PRELOAD } from '../support/pigpio-signals/build.ts';
import { startServerProcess } from '../support/server-process.ts';

/** Children of a process, zombies included (/proc/<pid>/stat, field 4 is the parent's pid). */
function childrenOf(pid: number): string[] {
  const children: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) children.push(`${entry} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)} state ${fields[0]}`);
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

/**
 * The compiled gateway (`node dist/server/main.js`, the unit's ExecStart) with pigpio's signal handlers
 * installed in the process and systemd's notification socket and watchdog set, stopped with SIGTERM.
 */
describe('the compiled gateway under systemd-like conditions, with pigpio-like signal handlers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-appliance-'));
  let addon = '';
  let receiver: DatagramReceiver;

  beforeAll(async () => {
    addon = buildPigpioSignalsAddon(dir);
    await buildServerIfStale();
    // Bound like systemd's $NOTIFY_SOCKET; it records what arrives and never answers.
    receiver = await bindDatagramReceiver(join(dir, 'notify.sock'));
  }, 60_000);
  afterAll(() => {
    receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM: outputs safe, READY/WATCHDOG/STOPPING sent from its own PID, workers compiled, no child process ever, exit 0', async () => {
    const dataDir = join(dir, 'data');
    const server = await startServerProcess(
      {
        GREENHOUSE_DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        NOTIFY_SOCKET: receiver.path,
        // 2 s: a ping every second, so several arrive during the test.
        WATCHDOG_USEC: '2000000',
        PIGPIO_SIGNALS_ADDON: addon,
      },
      60_000,
      ['--import', PIGPIO_SIGNALS_PRELOAD, 'dist/server/main.js'],
    );
    const pid = server.child.pid!;
    const http = httpClient(server.url);
    const token = await registerUser(http, { username: 'field-admin' });
    const on = await http.post('/api/devices/pump-1/control', { action: 'on' }, token);
    expect(on.status, JSON.stringify(on.body)).toBe(200);

    // The raw CSV export runs on a worker thread: the compiled worker next to the compiled server.
    const csv = await fetch(`${server.url}/api/analytics/export/greenhouse-001?hours=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\n')[0]).toContain('timestamp');

    await receiver.waitFor((messages) => messages.some((m) => m.startsWith('READY=1')) && messages.filter((m) => m === 'WATCHDOG=1\n').length >= 2);
    // Nothing was spawned (the preload's own child was reaped before pigpio's handlers went in): a child
    // now would never be reaped, as on a Pi.
    expect(childrenOf(pid)).toEqual([]);

    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    const log = server.output();
    expect(log).toContain('outputs in their safe state');
    expect(log).toContain('stopped cleanly');
    expect(log).not.toContain('forcing exit');
    await receiver.waitFor((messages) => messages.some((m) => m.startsWith('STOPPING=1')));
    expect(receiver.messages[0]).toMatch(/^READY=1\nSTATUS=Dashboard at http:\/\/127\.0\.0\.1:\d+ \(hardware: simulator\)\n$/);

    const sqlite = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      const pump = sqlite.prepare("SELECT status FROM devices WHERE device_id = 'pump-1'").get() as { status: string };
      expect(pump.status).toBe('OFF');
      const last = sqlite.prepare("SELECT source, new_status AS newStatus FROM control_log WHERE device_id = 'pump-1' ORDER BY id DESC LIMIT 1").get();
      expect(last).toEqual({ source: 'system', newStatus: 'OFF' });
    } finally {
      sqlite.close();
    }
  }, 90_000);

  it('without our handlers re-registered, pigpio\'s would end the process with 255: the shim is real', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(process.execPath, ['--import', PIGPIO_SIGNALS_PRELOAD, '-e', "process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000)"], {
      env: { ...process.env, PIGPIO_SIGNALS_ADDON: addon },
      timeout: 30_000,
    });
    expect(result.status).toBe(255);
  });
});
