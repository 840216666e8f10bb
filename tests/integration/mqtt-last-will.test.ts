// The last will, on a real gateway process (the compiled dist/server/main.js, as systemd runs it, with
// mqtt.js bundled in its own chunk, on Node's own streams: scripts/build-server.mjs) that answers a
// command and is then SIGKILLed: nothing in the process runs at that moment, so `offline` can only come
// from the broker.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../../scripts/build-server.mjs';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

describe('MQTT availability of a gateway process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-will-'));
  let broker: Broker | null = null;
  let server: ServerProcess | null = null;
  let sub: Subscriber | null = null;
  beforeAll(async () => {
    await buildServerIfStale();
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await sub?.close();
    await broker?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says online when it connects, answers a command, and the broker says offline for it when it is killed', { timeout: 120_000 }, async () => {
    broker = await startMosquitto();
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({ greenhouseId: 'house-will', mqtt: { baseTopic: 'farm' } }));
    sub = await Subscriber.connect(broker.url, ['farm/house-will/status', 'farm/house-will/devices/fan-1/result']);
    // With credentials: a gateway on an anonymous connection takes no commands.
    const { username, password } = GATEWAY_CREDENTIALS;
    server = await startServerProcess({
      GREENHOUSE_DATA_DIR: join(dir, 'data'),
      GREENHOUSE_CONFIG: configFile,
      GREENHOUSE_MQTT_URL: broker.url.replace('mqtt://', `mqtt://${username}:${password}@`),
    }, 60_000, [SERVER_ENTRY]);
    const online = await sub.next((m) => m.payload === 'online', 30_000, 'online');
    expect(online.retain).toBe(true);
    // The details of the health answer are for a signed-in account (the first one, with the setup code).
    const http = httpClient(server.url);
    const health = (await http.get('/api/health', await registerUser(http, { username: 'owner' }))).body as { data: { mqtt: Record<string, unknown> } };
    expect(health.data.mqtt).toMatchObject({ enabled: true, state: 'connected', topicRoot: 'farm/house-will', broker: broker.url });
    expect(JSON.stringify(health.data.mqtt)).not.toContain(password);

    const result = sub.nextNew((m) => m.topic === 'farm/house-will/devices/fan-1/result', 30_000, 'command result');
    await sub.publish('farm/house-will/devices/fan-1/set', 'ON');
    expect(JSON.parse((await result).payload)).toMatchObject({ command: 'ON', ok: true, status: 'ON' });

    const offline = sub.nextNew((m) => m.payload === 'offline', 30_000, 'the last will');
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    const will = await offline;
    expect(will.retain).toBe(true);
    // Retained: Home Assistant started later still sees the gateway as unavailable.
    const later = await Subscriber.connect(broker.url, ['farm/house-will/status']);
    try {
      expect((await later.next(() => true, 15_000, 'retained status')).payload).toBe('offline');
    } finally {
      await later.close();
    }
  });
});
