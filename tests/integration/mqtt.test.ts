// The MQTT bridge against a real Mosquitto started here: Home Assistant discovery, states out, commands
// in through the one control path (maintenance mode and safety included), device removal, and a
// broker that dies, comes back empty, or stops answering while the gateway keeps sampling.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';

const HA = 'homeassistant';
let houses = 0;
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;

let broker: Broker;
beforeAll(async () => {
  broker = await startMosquitto();
});
afterAll(async () => broker?.dispose());

interface Setup {
  /** A greenhouse id of its own per test: retained messages of one test never meet another's. */
  id: string;
  /** `greenhouse/<id>`. */
  root: string;
  config(component: string, objectId: string): string;
  gw: TestGateway;
  sensors: ReturnType<typeof fakeSensors>;
  http: HttpClient;
  admin: string;
  outputs: Map<string, FakeOutput>;
  sub: Subscriber;
}
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A gateway with fake hardware, bridged to the broker (it samples at start; tests call sampleNow for more). */
async function setup(mqtt: Record<string, unknown> = {}, greenhouseId = `house-${++houses}`): Promise<Setup> {
  const sub = await Subscriber.connect(broker.url, [`greenhouse/${greenhouseId}/#`, `${HA}/#`]);
  cleanups.push(() => sub.close());
  const outputs = fakeOutputs(defaultOutputs);
  const sensors = fakeSensors();
  const gw = await startTestGateway({ greenhouseId, mqtt: { url: broker.url, ...GATEWAY_CREDENTIALS, ...mqtt } as never }, { hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
  cleanups.push(() => gw.dispose());
  const http = httpClient(gw.url);
  const admin = await registerUser(http, { username: 'grower' });
  await sub.next((m) => m.topic === `greenhouse/${greenhouseId}/status` && m.payload === 'online', 15_000, 'status online');
  const config = (component: string, objectId: string) => `${HA}/${component}/${greenhouseId}/${objectId}/config`;
  return { id: greenhouseId, root: `greenhouse/${greenhouseId}`, config, gw, sensors, http, admin, outputs, sub };
}

const json = (payload: string) => JSON.parse(payload) as Record<string, any>;
/**
 * Two ticks stamped in the same millisecond: the second's readings are not stored (the readings table
 * only moves forward in time, server/time/monotone-readings.ts). Back-to-back sampleNow calls on a fast
 * machine can land in one millisecond, so each waits for the next.
 */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2));

describe('Home Assistant discovery', () => {
  it('announces every quantity, a switch per relay and a cover for the roof window, under one device per gateway', async () => {
    const { id: ID, root: ROOT, config: configTopic, sub } = await setup();
    const sensors = {
      temperature: ['temperature', '°C'],
      humidity: ['humidity', '%'],
      light_intensity: ['illuminance', 'lx'],
      soil_moisture: ['moisture', '%'],
      water_level: ['distance', 'cm'],
    } as const;
    for (const [objectId, [deviceClass, unit]] of Object.entries(sensors)) {
      const message = await sub.next((m) => m.topic === configTopic('sensor', objectId), 15_000, `${objectId} config`);
      expect(message.retain).toBe(true);
      const config = json(message.payload);
      expect(config).toMatchObject({
        device_class: deviceClass,
        unit_of_measurement: unit,
        state_class: 'measurement',
        state_topic: `${ROOT}/sensors/state`,
        availability_topic: `${ROOT}/status`,
        payload_available: 'online',
        payload_not_available: 'offline',
        unique_id: `greenhouse_${ID}_${objectId}`,
      });
      expect(config.value_template).toMatch(/value_json\.\w+/);
      expect(config.device).toMatchObject({ identifiers: [`greenhouse_gateway_${ID}`], model: expect.stringContaining('simulator'), serial_number: ID });
      expect(config.device.sw_version).toMatch(/^\d+\.\d+\.\d+/);
    }
    // VPD and dew point, once the gateway has a temperature and humidity (it samples at start).
    const vpd = json((await sub.next((m) => m.topic === configTopic('sensor', 'vpd'), 15_000, 'vpd config')).payload);
    expect(vpd).toMatchObject({ device_class: 'pressure', unit_of_measurement: 'kPa', state_class: 'measurement', value_template: '{{ value_json.vpdKpa }}' });
    const dew = json((await sub.next((m) => m.topic === configTopic('sensor', 'dew_point'), 15_000, 'dew point config')).payload);
    expect(dew).toMatchObject({ device_class: 'temperature', unit_of_measurement: '°C', value_template: '{{ value_json.dewPointC }}' });

    for (const relay of ['pump-1', 'fan-1', 'light-1', 'heater-1', 'cooling-1']) {
      const config = json((await sub.next((m) => m.topic === configTopic('switch', relay), 15_000, `${relay} switch`)).payload);
      expect(config).toMatchObject({
        command_topic: `${ROOT}/devices/${relay}/set`,
        state_topic: `${ROOT}/devices/${relay}/state`,
        payload_on: 'ON',
        payload_off: 'OFF',
        availability_topic: `${ROOT}/status`,
        qos: 1,
        retain: false,
      });
      expect(config.device.identifiers).toEqual([`greenhouse_gateway_${ID}`]);
    }
    const cover = json((await sub.next((m) => m.topic === configTopic('cover', 'window-1'), 15_000, 'window cover')).payload);
    expect(cover).toMatchObject({
      device_class: 'window',
      command_topic: `${ROOT}/devices/window-1/set`,
      payload_open: 'OPEN',
      payload_close: 'CLOSE',
      state_open: 'OPEN',
      state_closed: 'CLOSED',
      position_topic: `${ROOT}/devices/window-1/position`,
      position_open: 100,
      position_closed: 0,
    });
    expect((await sub.next((m) => m.topic === `${ROOT}/devices/window-1/state`)).payload).toBe('CLOSED');
    expect((await sub.next((m) => m.topic === `${ROOT}/devices/window-1/position`)).payload).toBe('0');
    expect((await sub.next((m) => m.topic === `${ROOT}/devices/fan-1/state`)).payload).toBe('OFF');
  });

  it('clears the config and state of a removed device, and announces an added one', async () => {
    const { config: configTopic, http, admin, sub } = await setup();
    const added = await http.post('/api/devices', { deviceName: 'Mister', deviceId: 'mister-1', deviceType: 'WATER_PUMP', outputId: 'relay-6' }, admin);
    expect(added.status).toBe(201);
    const config = json((await sub.next((m) => m.topic === configTopic('switch', 'mister-1') && m.payload !== '')).payload);
    expect(config.name).toBe('Mister');

    expect((await http.del('/api/devices/mister-1', admin)).status).toBe(200);
    const cleared = await sub.next((m) => m.topic === configTopic('switch', 'mister-1') && m.payload === '', 15_000, 'cleared config');
    expect(cleared.payload).toBe('');
    expect(cleared.retain).toBe(true);
    // Nothing is left retained for it on the broker: a new subscriber gets no config. A broker never
    // stores an empty retained payload, so only a config with a payload would be one left behind; a
    // loaded run once showed the new subscriber a second, live copy of the empty clearing message
    // (retain-as-published gives it the retain flag too), which asks Home Assistant for nothing more.
    const late = await Subscriber.connect(broker.url, [configTopic('switch', 'mister-1'), configTopic('switch', 'fan-1')]);
    cleanups.push(() => late.close());
    await late.next((m) => m.topic === configTopic('switch', 'fan-1'));
    expect(late.messages.filter((m) => m.topic === configTopic('switch', 'mister-1') && m.payload !== '')).toEqual([]);
  });

  it('clears at start a retained config of a device that was removed while the gateway was away', async () => {
    const id = 'house-away';
    const configTopic = (component: string, objectId: string) => `${HA}/${component}/${id}/${objectId}/config`;
    const stale = await Subscriber.connect(broker.url, []);
    cleanups.push(() => stale.close());
    await stale.publish(configTopic('switch', 'gone-1'), JSON.stringify({ name: 'Gone', command_topic: `greenhouse/${id}/devices/gone-1/set` }), { retain: true });
    const { sub } = await setup({}, id);
    const cleared = await sub.next((m) => m.topic === configTopic('switch', 'gone-1') && m.payload === '', 15_000, 'stale config cleared');
    expect(cleared.retain).toBe(true);
  });
});

describe('states', () => {
  it('publishes the sensors each tick and a device state on change', async () => {
    const { id: ID, root: ROOT, gw, sensors, http, admin, sub } = await setup();
    await gw.sampler.sampleNow();
    const state = json((await sub.next((m) => m.topic === `${ROOT}/sensors/state`, 15_000, 'sensors/state')).payload);
    expect(state).toMatchObject({ greenhouseId: ID, temperature: 22, humidity: 60, lightIntensity: 500, soilMoisture: 40, waterLevel: 30 });
    expect(Date.parse(state.timestamp)).toBeGreaterThan(0);
    sensors.climate.value = { temperatureC: 23.5, humidityPct: 58 };
    await gw.sampler.sampleNow();
    const next = await sub.next((m) => m.topic === `${ROOT}/sensors/state` && json(m.payload).temperature === 23.5, 15_000, 'the next tick');
    // The allSensorsUpdate values, VPD and dew point included (23.5 °C at 58 %: 1.21 kPa, 14.8 °C).
    expect(json(next.payload)).toMatchObject({ humidity: 58, lightIntensity: 500, vpdKpa: 1.21, dewPointC: 14.8 });

    const on = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/state`, 15_000, 'fan state');
    expect((await http.post('/api/devices/fan-1/control', { action: 'on' }, admin)).status).toBe(200);
    const message = await on;
    expect(message.payload).toBe('ON');
    expect(message.retain).toBe(true);
  });

  it("publishes how far the roof window is open, as Home Assistant's cover position", async () => {
    const { root: ROOT, gw, sub } = await setup();
    await sub.next((m) => m.topic === `${ROOT}/devices/window-1/position` && m.payload === '0', 15_000, 'closed');
    // A climate program opens it in proportion (the same control path, with openPct).
    const opened = sub.nextNew((m) => m.topic === `${ROOT}/devices/window-1/position`, 15_000, 'opened to 40 %');
    await gw.control.control({ deviceId: 'window-1', action: 'on', source: 'rule', actor: 'climate', openPct: 40 });
    const position = await opened;
    expect(position.payload).toBe('40');
    expect(position.retain).toBe(true);
    await sub.next((m) => m.topic === `${ROOT}/devices/window-1/state` && m.payload === 'OPEN', 15_000, 'state OPEN');
    const closed = sub.nextNew((m) => m.topic === `${ROOT}/devices/window-1/position`, 15_000, 'closed again');
    await gw.control.control({ deviceId: 'window-1', action: 'off', source: 'rule', actor: 'climate' });
    expect((await closed).payload).toBe('0');
  });

  it('publishes alerts as events', async () => {
    const { id: ID, root: ROOT, http, admin, sub } = await setup();
    const created = await http.post(`/api/alerts/${ID}`, { alertType: 'CUSTOM_CHECK', severity: 'HIGH', message: 'Door left open' }, admin);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const event = json((await sub.next((m) => m.topic === `${ROOT}/alerts`, 15_000, 'alert event')).payload);
    expect(event.event).toBe('newAlert');
    expect(event.alert).toMatchObject({ message: 'Door left open', severity: 'HIGH' });

    const resolved = sub.nextNew((m) => m.topic === `${ROOT}/alerts`, 15_000, 'resolution event');
    expect((await http.put(`/api/alerts/${created.body.data._id}/resolve`, {}, admin)).status).toBe(200);
    const resolution = json((await resolved).payload);
    expect(resolution).toMatchObject({ event: 'alertResolved', alert: { _id: created.body.data._id, isResolved: true } });
    expect((await resolved).retain).toBe(false);
  });
});

describe('commands on /set', () => {
  it('switch a relay through the control path, logged with source mqtt', async () => {
    const { id: ID, root: ROOT, http, admin, outputs, sub } = await setup();
    const result = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result`, 15_000, 'command result');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'ON');
    expect(json((await result).payload)).toMatchObject({ command: 'ON', ok: true, status: 'ON' });
    expect(outputs.get('relay-2')!.on).toBe(true);
    expect((await sub.next((m) => m.topic === `${ROOT}/devices/fan-1/state` && m.payload === 'ON')).retain).toBe(true);
    const device = (await http.get(`/api/devices/${ID}`, admin)).body.data.find((d: { deviceId: string }) => d.deviceId === 'fan-1');
    expect(device.status).toBe('ON');
    const log = (await http.get('/api/devices/fan-1/log', admin)).body.data;
    expect(log[0]).toMatchObject({ source: 'mqtt', actor: 'mqtt', newStatus: 'ON', previousStatus: 'OFF' });

    const window = sub.nextNew((m) => m.topic === `${ROOT}/devices/window-1/state`, 15_000, 'window state');
    await sub.publish(`${ROOT}/devices/window-1/set`, 'OPEN');
    expect((await window).payload).toBe('OPEN');
    expect(outputs.get('servo-1')!.on).toBe(true);
  });

  it('are refused in maintenance mode (except switching off), and answer why', async () => {
    const { id: ID, root: ROOT, http, admin, outputs, sub } = await setup();
    expect((await http.put(`/api/settings/${ID}/system`, { systemSettings: { maintenanceMode: true } }, admin)).status).toBe(200);
    const refused = sub.nextNew((m) => m.topic === `${ROOT}/devices/light-1/result`, 15_000, 'refusal');
    await sub.publish(`${ROOT}/devices/light-1/set`, 'ON');
    const answer = json((await refused).payload);
    expect(answer.ok).toBe(false);
    expect(answer.message).toMatch(/maintenance/i);
    expect(outputs.get('relay-3')!.calls).toEqual([]);
    expect((await http.get('/api/devices/light-1/log', admin)).body.data).toEqual([]);

    const off = sub.nextNew((m) => m.topic === `${ROOT}/devices/light-1/result`, 15_000, 'off result');
    await sub.publish(`${ROOT}/devices/light-1/set`, 'OFF');
    expect(json((await off).payload)).toMatchObject({ ok: true, status: 'OFF' });
  });

  it('refuse what safety forbids, unknown commands and unknown devices; ignore retained commands', async () => {
    const { root: ROOT, http, admin, outputs, sub } = await setup();
    await http.post('/api/devices/heater-1/control', { action: 'on' }, admin);
    const interlock = sub.nextNew((m) => m.topic === `${ROOT}/devices/cooling-1/result`, 15_000, 'interlock');
    await sub.publish(`${ROOT}/devices/cooling-1/set`, 'ON');
    expect(json((await interlock).payload)).toMatchObject({ ok: false, message: expect.stringMatching(/never run together/) });
    expect(outputs.get('relay-5')!.on).toBe(false);

    const typo = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result`, 15_000, 'typo');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'explode');
    expect(json((await typo).payload)).toMatchObject({ ok: false, message: expect.stringMatching(/ON, OFF, OPEN or CLOSE/) });
    const wrongKind = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result`, 15_000, 'open on a fan');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'OPEN');
    expect(json((await wrongKind).payload)).toMatchObject({ ok: false, message: expect.stringMatching(/action 'open'/) });
    const unknown = sub.nextNew((m) => m.topic === `${ROOT}/devices/nope-1/result`, 15_000, 'unknown device');
    await sub.publish(`${ROOT}/devices/nope-1/set`, 'ON');
    expect(json((await unknown).payload)).toMatchObject({ ok: false, message: expect.stringMatching(/not found/) });
  });

  it('never obey a retained command left on the broker (it would switch again at every reconnect)', async () => {
    const id = 'house-retained';
    const root = `greenhouse/${id}`;
    const publisher = await Subscriber.connect(broker.url, []);
    cleanups.push(async () => {
      await publisher.publish(`${root}/devices/fan-1/set`, '', { retain: true });
      await publisher.close();
    });
    await publisher.publish(`${root}/devices/fan-1/set`, 'ON', { retain: true });
    const { outputs, sub } = await setup({}, id);
    // The retained ON arrives with the subscription, before this plain command: it got no answer.
    const plain = sub.nextNew((m) => m.topic === `${root}/devices/fan-1/result`, 15_000, 'plain command');
    await sub.publish(`${root}/devices/fan-1/set`, 'OFF');
    expect(json((await plain).payload)).toMatchObject({ command: 'OFF', ok: true });
    expect(sub.messages.filter((m) => m.topic === `${root}/devices/fan-1/result`)).toHaveLength(1);
    expect(outputs.get('relay-2')!.calls).toEqual([false]);
  });
});

describe('a broker that goes away', () => {
  it('restarting mid-stream: sampling goes on, the bridge reconnects and publishes everything again', { timeout: 90_000 }, async () => {
    const { id: ID, root: ROOT, config: configTopic, gw, sensors, http, admin, sub } = await setup();
    await gw.sampler.sampleNow();
    await sub.next((m) => m.topic === `${ROOT}/sensors/state`);

    await broker.kill();
    const health = async () => (await http.get('/api/health', admin)).body.data.mqtt;
    for (let i = 0; i < 50 && (await health()).state === 'connected'; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await health()).state).not.toBe('connected');
    // Sampling and control go on while the broker is gone: every tick stores its readings.
    for (let i = 0; i < 5; i++) {
      sensors.climate.value = { temperatureC: 20 + i, humidityPct: 60 };
      await nextMillisecond();
      expect(await gw.sampler.sampleNow()).toMatchObject({ published: 4, failedSensors: [] });
    }
    expect((await http.post('/api/devices/fan-1/control', { action: 'on' }, admin)).status).toBe(200);
    const down = await health();
    expect(down).toMatchObject({ enabled: true, broker: broker.url, topicRoot: ROOT });
    expect(down.queued).toBeGreaterThan(0);

    // The broker comes back empty (no persistence): the gateway says online again and republishes
    // discovery and the current states, including the change made while it was away.
    await broker.start();
    const fresh = await Subscriber.connect(broker.url, [`${ROOT}/#`, `${HA}/#`]);
    cleanups.push(() => fresh.close());
    await fresh.next((m) => m.topic === `${ROOT}/status` && m.payload === 'online', 30_000, 'online after restart');
    expect((await fresh.next((m) => m.topic === `${ROOT}/devices/fan-1/state`, 15_000, 'fan state')).payload).toBe('ON');
    await fresh.next((m) => m.topic === configTopic('switch', 'fan-1'), 15_000, 'discovery again');
    const state = json((await fresh.next((m) => m.topic === `${ROOT}/sensors/state`, 15_000, 'sensors again')).payload);
    expect(state.temperature).toBe(24);
    await gw.sampler.sampleNow();
    const up = await health();
    expect(up.state).toBe('connected');
    expect(up.lastConnectedAt).not.toBeNull();
    const metrics = (await http.get('/api/metrics', admin)).body as string;
    expect(metrics).toContain(`greenhouse_mqtt_connected{broker="${broker.url}",greenhouse_id="${ID}"} 1`);
  });

  it('that stops answering: requests and sampling go on, the queue stays within its cap', { timeout: 90_000 }, async () => {
    const { id: ID, gw, sensors, http, admin } = await setup({ queueLimit: 10 });
    const pid = brokerPid();
    process.kill(pid, 'SIGSTOP');
    try {
      // Sixty-four events wait for acknowledgement, ten more are queued, the rest are dropped.
      for (let i = 0; i < 100; i++) {
        const created = await http.post(`/api/alerts/${ID}`, { alertType: 'CUSTOM_CHECK', severity: 'LOW', message: `note ${i}` }, admin);
        expect(created.status).toBe(201);
      }
      for (let i = 0; i < 3; i++) {
        sensors.climate.value = { temperatureC: 20 + i, humidityPct: 60 };
        await nextMillisecond();
        expect(await gw.sampler.sampleNow()).toMatchObject({ published: 4, failedSensors: [] });
      }
      const status = (await http.get('/api/health', admin)).body.data.mqtt;
      expect(status.dropped).toBeGreaterThan(0);
      // At most: 64 unacknowledged, 10 events, and one per retained topic (7 sensor and 6 device
      // configs, 6 device states, sensors/state), however many alerts and ticks came meanwhile.
      expect(status.queued).toBeLessThanOrEqual(64 + 10 + 20);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });
});

describe('a gateway that stops', () => {
  it('says offline (retained) before it disconnects', async () => {
    const { root: ROOT, gw, sub } = await setup();
    const offline = sub.nextNew((m) => m.topic === `${ROOT}/status`, 15_000, 'offline');
    await gw.dispose();
    const message = await offline;
    expect(message).toMatchObject({ payload: 'offline', retain: true });
  });
});

describe('configuration', () => {
  it('is off while mqtt.url is unset, and the health answer says so', async () => {
    const gw = await startTestGateway({});
    cleanups.push(() => gw.dispose());
    const http = httpClient(gw.url);
    const health = (await http.get('/api/health', await registerUser(http, { username: 'grower' }))).body.data;
    expect(health.mqtt).toMatchObject({ enabled: false, state: 'off', broker: null });
  });
});

/** The broker's pid, for SIGSTOP (a broker that accepts nothing more but keeps its sockets open). */
function brokerPid(): number {
  const pid = broker.pid();
  if (!pid) throw new Error('broker pid unknown');
  return pid;
}
