import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../server/db/open.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { startServerProcess } from '../support/server-process.ts';

/** The real server process stopped as systemd stops it (SIGTERM) and as a terminal does (SIGINT). */
describe('graceful shutdown of the server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-stop-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each(['SIGTERM', 'SIGINT'] as const)('%s: outputs safe, database closed cleanly, exit 0', async (signal) => {
    const server = await startServerProcess({ GREENHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const http = httpClient(server.url);
    const token =
      signal === 'SIGTERM'
        ? await registerUser(http, { username: 'stop-admin' })
        : (await http.post('/api/auth/login', { username: 'stop-admin', password: 'correct-horse-1' })).body.token;
    const on = await http.post('/api/devices/fan-1/control', { action: 'on' }, token);
    expect(on.status, JSON.stringify(on.body)).toBe(200);

    server.child.kill(signal);
    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('stopped cleanly');

    const sqlite = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const fan = sqlite.prepare("SELECT status FROM devices WHERE device_id = 'fan-1'").get() as { status: string };
      expect(fan.status).toBe('OFF');
      const last = sqlite.prepare("SELECT source, new_status AS newStatus FROM control_log WHERE device_id = 'fan-1' ORDER BY id DESC LIMIT 1").get();
      expect(last).toEqual({ source: 'system', newStatus: 'OFF' });
    } finally {
      sqlite.close();
    }
  });
});
