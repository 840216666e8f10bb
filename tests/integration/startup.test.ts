import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient } from '../support/http.ts';

describe('start-up', () => {
  it('stops with exit code 78 and a message naming the key on a bad config value', () => {
    const result = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'server/main.ts'], {
      env: { ...process.env, PORT: 'eighty', GREENHOUSE_DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-bad-')) },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('port (PORT): must be integer, got "eighty"');
  });
});

describe('dashboard serving', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Greenhouse Dashboard</title>');
    writeFileSync(join(webRoot, 'assets', 'app-123.js'), 'console.log(1)');
    gw = await startTestGateway({}, { webRoot });
  });
  afterAll(() => gw.dispose());

  it.each(['/', '/login', '/dashboard', '/dashboard/sensors', '/dashboard/settings?tab=system'])('serves index.html for the deep link %s', async (path) => {
    const res = await fetch(`${gw.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('Greenhouse Dashboard');
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const res = await fetch(`${gw.url}/assets/app-123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('keeps unknown /api paths as JSON 404s', async () => {
    const res = await httpClient(gw.url).get('/api/dashboard');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });
});

describe('outputs and the gateway lifecycle', () => {
  it('drives outputs to their safe state at start, before serving, and again on shutdown', async () => {
    const calls: string[] = [];
    const hardware = {
      sensors: [],
      outputs: new Map(),
      status: () => [],
      safeState: async () => {
        calls.push('safeState');
      },
      close: async () => {
        calls.push('close');
      },
    };
    const gw = await startTestGateway({}, { hardware });
    expect(calls).toEqual(['safeState']);
    await gw.dispose();
    expect(calls).toEqual(['safeState', 'safeState', 'close']);
  });

  it('builds the simulator in simulator mode', async () => {
    const gw = await startTestGateway();
    try {
      expect(gw.hardware.simulator).toBeDefined();
      expect(gw.hardware.outputs.size).toBeGreaterThanOrEqual(6);
      expect(gw.hardware.sensors.map((s) => s.sensorId)).toEqual(['dht11', 'ldr', 'soil', 'tank']);
      expect(await gw.hardware.sensors[0]!.read()).toMatchObject({ temperatureC: expect.any(Number) });
    } finally {
      await gw.dispose();
    }
  });

  it('has a schema that compiles for every route (they compile on first use, so check them all here)', async () => {
    const gw = await startTestGateway();
    try {
      expect(() => gw.app.compileAllSchemas()).not.toThrow();
    } finally {
      await gw.dispose();
    }
  });
});
