// The compiled gateway (dist/server/main.js, as systemd runs it) validates and serializes with the code
// the build generated for each route (server/http/precompiled-schemas.ts), never compiling a schema on
// its event loop: over real HTTP, bad input still gets a 400 naming the field and changes nothing, a
// query is still coerced, defaults still fill in, and answers still carry exactly their schema's fields.
// Nor does it load the schema compilers to do so (server/http/lazy-schema-compilers.ts), nor, with HTTPS
// on as the unit runs it, the X.509 library that issued its certificate (server/https/certificate-worker.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../../scripts/build-server.mjs';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { httpsRequest } from '../support/https.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { TestSocket } from '../support/ws.ts';

const SCHEMAS_DIR = join(import.meta.dirname, '..', '..', 'dist', 'server', 'schemas');
const RECORDER = join(import.meta.dirname, '..', 'support', 'loaded-modules-recorder.mjs');

describe('the compiled gateway with its generated schema code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-compiled-schemas-'));
  let server: ServerProcess;
  let http: HttpClient;
  let token = '';
  const loadedModulesFile = join(dir, 'loaded-modules.json');
  beforeAll(async () => {
    await buildServerIfStale();
    const env = { GREENHOUSE_DATA_DIR: join(dir, 'data'), GREENHOUSE_HARDWARE: 'simulator', HTTPS_PORT: '0', GREENHOUSE_TEST_LOADED_MODULES_FILE: loadedModulesFile };
    server = await startServerProcess(env, 60_000, ['--import', RECORDER, SERVER_ENTRY]);
    http = httpClient(server.url);
    token = await registerUser(http, { username: 'owner' });
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('has the generated code beside it', () => {
    expect(existsSync(join(SCHEMAS_DIR, 'index.cjs'))).toBe(true);
    expect(readdirSync(SCHEMAS_DIR).filter((name) => name.endsWith('.cjs')).length).toBeGreaterThan(50);
  });

  it('refuses a bad body with a 400 naming the field, and switches nothing', async () => {
    const fan = async () => ((await http.get('/api/devices/greenhouse-001', token)).body.data as Array<{ deviceId: string; status: string }>).find((d) => d.deviceId === 'fan-1')!;
    const before = await fan();
    const refused = await http.post('/api/devices/fan-1/control', { action: 'explode' }, token);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.body.message).toMatch(/action/);
    expect((await fan()).status).toBe(before.status);
    const switched = await http.post('/api/devices/fan-1/control', { action: 'on' }, token);
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(switched.body.data.device.status).toBe('ON');
    expect((await fan()).status).toBe('ON');
  });

  it('coerces a query and refuses a bad one, naming the field', async () => {
    const hour = await http.get('/api/sensors/historical/greenhouse-001?hours=1', token);
    expect(hour.status, JSON.stringify(hour.body)).toBe(200);
    expect(Array.isArray(hour.body.data)).toBe(true);
    for (const query of ['hours=abc', 'hours=5', 'sensorType=FOO']) {
      const res = await http.get(`/api/sensors/historical/greenhouse-001?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(/hours|sensorType/);
    }
  });

  it('serializes answers to their schema: a device carries its fields, and no password hash ever leaves', async () => {
    const devices = (await http.get('/api/devices/greenhouse-001', token)).body.data as Array<Record<string, unknown>>;
    expect(devices.length).toBeGreaterThan(0);
    expect(devices[0]).toMatchObject({ deviceId: expect.any(String), status: expect.any(String), deviceType: expect.any(String) });
    const me = await http.get('/api/auth/me', token);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(JSON.stringify(me.body)).not.toMatch(/hash|argon/i);
  });

  // Last: it stops the gateway. Everything above validated bodies and queries and serialized answers.
  it('loaded neither Ajv, fast-json-stringify\'s compiler, glob, asn1.js, duplexify, node:http2 nor the X.509 library to do all that', async () => {
    // HTTPS on a fresh data dir: the local CA and the server certificate were issued at start, on a worker.
    const https = (await http.get('/api/https', token)).body.data as { enabled: boolean; urls: string[] };
    expect(https.enabled).toBe(true);
    const port = new URL(https.urls[0]!).port;
    const ca = readFileSync(join(dir, 'data', 'tls', 'ca.crt'), 'utf8');
    expect((await httpsRequest(`https://127.0.0.1:${port}/api/health`, { ca })).status).toBe(200);
    const dashboard = await fetch(`${server.url}/dashboard/sensors`);
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-type')).toMatch(/text\/html/);
    // A dashboard's live link: @fastify/websocket upgrades it without its test helper's duplexify.
    const socket = new TestSocket(server.url);
    await socket.join(token);
    socket.close();
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    const loaded = JSON.parse(readFileSync(loadedModulesFile, 'utf8')) as { builtins: string[]; required: string[]; reflectMetadata: boolean };
    // The recorder sees what is required from node_modules: the generated code's serializer runtime.
    expect(loaded.required.some((path) => path.endsWith('/node_modules/fast-json-stringify/lib/serializer.js'))).toBe(true);
    const compilers = /\/node_modules\/(ajv\/dist\/(ajv|core)\.js|fast-json-stringify\/index\.js|@fastify\/(ajv-compiler|fast-json-stringify-compiler)\/|glob\/|duplexify\/|asn1\.js\/)/;
    expect(loaded.required.filter((path) => compilers.test(path))).toEqual([]);
    expect(loaded.builtins).toContain('http');
    expect(loaded.builtins).not.toContain('http2');
    expect(loaded.builtins).toContain('https');
    expect(loaded.reflectMetadata).toBe(false);
  });
});
