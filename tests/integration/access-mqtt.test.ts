import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import mqtt from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CREDENTIALS } from '../../server/mqtt/feature.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';

/**
 * Access on MQTT: an attacker with a client on the gateway's broker (anonymous, as a
 * default Mosquitto lets anyone in) tries to switch the heater, to hijack the fan's Home Assistant
 * switch, to knock the gateway off with its own client id, and a database with ids that are MQTT
 * wildcards. Real Mosquitto, real gateway.
 */
const GH = 'greenhouse-001';
const ROOT = `greenhouse/${GH}`;
const FAN_CONFIG = `homeassistant/switch/${GH}/fan-1/config`;
const json = (payload: string) => (payload === '' ? {} : (JSON.parse(payload) as Record<string, any>));

let broker: Broker;
const subscribers: Subscriber[] = [];
const gateways: TestGateway[] = [];
beforeAll(async () => {
  broker = await startMosquitto();
});
afterAll(async () => {
  for (const sub of subscribers) await sub.close();
  for (const gw of gateways) await gw.dispose();
  await broker?.dispose();
});

async function client(filters: string[]): Promise<Subscriber> {
  const sub = await Subscriber.connect(broker.url, filters);
  subscribers.push(sub);
  return sub;
}

/** A gateway on the broker with a log we can read; online once its status says so. */
async function gateway(mqttConfig: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(chunk.toString()); done(); } }));
  const watcher = await client([`${ROOT}/status`]);
  const gw = await startTestGateway({ mqtt: { url: broker.url, ...mqttConfig } as never, ...overrides }, { logger });
  gateways.push(gw);
  await watcher.next((m) => m.topic === `${ROOT}/status` && m.payload === 'online', 15_000, 'gateway online');
  const http = httpClient(gw.url);
  const owner = await registerUser(http, { username: 'owner' });
  const mqttStatus = async () => (await http.get('/api/health', owner)).body.data.mqtt;
  return { gw, http, owner, lines, mqttStatus, watcher };
}

/** The fake a hostile client leaves retained: the fan's switch in Home Assistant commands the heater. */
const fakeFanConfig = () =>
  JSON.stringify({ name: 'Ventilation Fan', unique_id: `${GH}_fan-1`, state_topic: `${ROOT}/devices/fan-1/state`, command_topic: `${ROOT}/devices/heater-1/set`, payload_on: 'ON', payload_off: 'OFF' });
const isOurs = (payload: string) => json(payload).command_topic === `${ROOT}/devices/fan-1/set`;

/** What the broker holds retained on a topic now, through a fresh subscription. */
async function retainedNow(topic: string): Promise<string> {
  const fresh = await client([topic]);
  const message = await fresh.next((m) => m.topic === topic && m.retain, 15_000, `retained ${topic}`);
  return message.payload;
}

describe('without broker credentials', () => {
  it('publishes states but ignores every command, saying so once in the log and in /api/health', async () => {
    const { gw, http, owner, lines, mqttStatus } = await gateway({});
    const attacker = await client([`${ROOT}/devices/+/state`, `${ROOT}/devices/+/result`, FAN_CONFIG]);
    await attacker.next((m) => m.topic === `${ROOT}/devices/heater-1/state` && m.payload === 'OFF', 15_000, 'heater state published');
    await attacker.next((m) => m.topic === FAN_CONFIG && isOurs(m.payload), 15_000, 'the gateway\'s fan config');

    for (const payload of ['ON', 'on', 'ON', 'OPEN']) await attacker.publish(`${ROOT}/devices/heater-1/set`, payload);
    await attacker.publish(`${ROOT}/devices/fan-1/set`, 'ON');
    // Sync point: the gateway answers a fake config of its own (below) only after the broker has
    // handled everything this client published before it, the commands included.
    const replaced = attacker.nextNew((m) => m.topic === FAN_CONFIG && isOurs(m.payload), 15_000, 'fan config replaced');
    await attacker.publish(FAN_CONFIG, fakeFanConfig(), { retain: true });
    await replaced;

    const devices = (await http.get(`/api/devices/${GH}`, owner)).body.data as Array<{ deviceId: string; status: string }>;
    expect(devices.find((d) => d.deviceId === 'heater-1')!.status).toBe('OFF');
    expect(devices.find((d) => d.deviceId === 'fan-1')!.status).toBe('OFF');
    expect(attacker.messages.filter((m) => m.topic.endsWith('/result'))).toHaveLength(0);
    const controlLog = gw.database.sqlite.prepare("SELECT count(*) AS n FROM control_log WHERE source = 'mqtt'").get() as { n: number };
    expect(controlLog.n).toBe(0);
    expect(await mqttStatus()).toMatchObject({ state: 'connected', commandsReceived: 0, commandsIgnored: NO_CREDENTIALS });
    expect(lines.filter((l) => l.includes('MQTT commands are ignored'))).toHaveLength(1);
    // Anonymous callers still learn nothing about the broker.
    expect(JSON.stringify((await http.get('/api/health')).body)).not.toContain(broker.url);
    await gw.dispose();
    gateways.splice(gateways.indexOf(gw), 1);
  });
});

describe('with broker credentials', () => {
  let g: Awaited<ReturnType<typeof gateway>>;
  beforeAll(async () => {
    g = await gateway({ ...GATEWAY_CREDENTIALS });
  });
  afterAll(async () => {
    await g.gw.dispose();
    gateways.splice(gateways.indexOf(g.gw), 1);
  });

  it('obeys a command', async () => {
    const sub = await client([`${ROOT}/devices/+/result`]);
    const answer = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result`, 15_000, 'fan answer');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'ON');
    expect(json((await answer).payload)).toMatchObject({ ok: true, status: 'ON' });
    expect(await g.mqttStatus()).toMatchObject({ commandsReceived: 1, commandsIgnored: null });
  });

  it('replaces a foreign retained config under its node id at once, and after a burst of fakes keeps the last word', async () => {
    const watcher = await client([FAN_CONFIG]);
    await watcher.next((m) => m.topic === FAN_CONFIG && isOurs(m.payload), 15_000, 'our config');
    const attacker = await client([]);
    const replaced = watcher.nextNew((m) => m.topic === FAN_CONFIG && isOurs(m.payload), 15_000, 'replacement');
    await attacker.publish(FAN_CONFIG, fakeFanConfig(), { retain: true });
    await replaced;
    expect(isOurs(await retainedNow(FAN_CONFIG))).toBe(true);

    // Three fakes in a row (the replacements are paced per topic): the broker ends with ours.
    for (let i = 0; i < 3; i++) await attacker.publish(FAN_CONFIG, fakeFanConfig(), { retain: true });
    await watcher.nextNew((m) => m.topic === FAN_CONFIG && isOurs(m.payload), 15_000, 'paced replacement');
    expect(isOurs(await retainedNow(FAN_CONFIG))).toBe(true);
    // Deleting the entity (an empty retained config) is undone the same way.
    const restored = watcher.nextNew((m) => m.topic === FAN_CONFIG && isOurs(m.payload), 15_000, 'restored');
    await attacker.publish(FAN_CONFIG, '', { retain: true });
    await restored;
    expect(g.lines.filter((l) => l.includes('did not publish')).every((l) => !l.includes('heater-1/set'))).toBe(true);
  });

  it('is not knocked off by clients that connect with its old, predictable client id', async () => {
    const before = await g.mqttStatus();
    for (let i = 0; i < 4; i++) {
      const impostor = await mqtt.connectAsync(broker.url, { clientId: `greenhouse-${GH}`, reconnectPeriod: 0 });
      await impostor.endAsync(true);
    }
    // Sync point: a command answered after the impostors came and went.
    const sub = await client([`${ROOT}/devices/+/result`]);
    const answer = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result`, 15_000, 'answer after impostors');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'OFF');
    await answer;
    const statuses = g.watcher.messages.filter((m) => m.topic === `${ROOT}/status`).map((m) => m.payload);
    expect(statuses.slice(statuses.indexOf('online'))).toEqual(['online']); // never offline since it came online
    const after = await g.mqttStatus();
    expect(after.state).toBe('connected');
    expect(after.lastConnectedAt).toBe(before.lastConnectedAt);
  });
});

describe('device ids that are not safe in topics, from an older database', () => {
  it('skips them with one log line each and stays connected, publishing the others; payloads are logged by size only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-badids-'));
    try {
      const first = await startTestGateway({ dataDir });
      const insert = first.database.sqlite.prepare(
        `INSERT INTO devices (device_id, greenhouse_id, name, type, status, power_w, intensity_pct, auto_mode, location, automation_rules, sensor_loss_action, output_id, created_at, updated_at)
         SELECT ?, greenhouse_id, ?, type, status, power_w, intensity_pct, auto_mode, location, automation_rules, sensor_loss_action, NULL, created_at, updated_at FROM devices WHERE device_id = 'fan-1'`,
      );
      for (const id of ['pump/#', 'fan+1', 'two words']) insert.run(id, `Old ${id}`);
      await first.stop();

      const bad = ['pump/#', 'fan+1', 'two words'];
      // A retained command left on the broker, carrying a marker: ignored at connect, logged without it.
      const marker = 'SECRET-MARKER-in-payload';
      const leftover = await client([]);
      await leftover.publish(`${ROOT}/devices/light-1/set`, `ON ${marker}`, { retain: true });
      const sub = await client([`${ROOT}/#`, `homeassistant/+/${GH}/+/config`]);
      const { lines, mqttStatus, watcher } = await gateway({ ...GATEWAY_CREDENTIALS }, { dataDir });
      await sub.next((m) => m.topic === `${ROOT}/devices/window-1/state`, 15_000, 'the last good device');
      const status = await mqttStatus();
      expect(status.state).toBe('connected');
      for (const id of bad) expect(lines.filter((l) => l.includes('device skipped') && l.includes(JSON.stringify(id)))).toHaveLength(1);
      expect(sub.messages.some((m) => bad.some((id) => m.topic.includes(id)))).toBe(false);
      // Reconnects would say online again (and offline in between): once only, after the retained
      // 'offline' of the gateway before it.
      const statuses = watcher.messages.filter((m) => m.topic === `${ROOT}/status`).map((m) => m.payload);
      expect(statuses.slice(statuses.indexOf('online'))).toEqual(['online']);
      expect(lines.filter((l) => l.includes('connected to the MQTT broker'))).toHaveLength(1);
      const ignored = lines.filter((l) => l.includes('ignored a retained MQTT command'));
      expect(ignored).toHaveLength(1);
      expect(JSON.parse(ignored[0]!)).toMatchObject({ deviceId: 'light-1', bytes: `ON ${marker}`.length });
      expect(lines.join('\n')).not.toContain(marker);
      await leftover.publish(`${ROOT}/devices/light-1/set`, '', { retain: true }); // leave the broker clean
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
