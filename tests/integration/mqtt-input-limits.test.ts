// MQTT input hardening against a real Mosquitto: oversized and flooding commands are dropped and
// counted (in /api/metrics), answers never echo the input, one device's flood leaves another's
// commands alone, and a burst of Home Assistant birth messages causes one republish.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ConfigSchema } from '../../server/config/schema.ts';
import { DEFAULT_INPUT_LIMITS } from '../../server/mqtt/input-guard.ts';
import { fakeHardware, fakeOutputs } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';

const ID = 'house-limits';
const ROOT = `greenhouse/${ID}`;
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;

let broker: Broker;
let gw: TestGateway;
let http: HttpClient;
let admin: string;
let sub: Subscriber;
let outputs: ReturnType<typeof fakeOutputs>;

async function dropped(reason: string): Promise<number> {
  const text = String((await http.get('/api/metrics', admin)).body);
  const line = text.split('\n').find((l) => l.startsWith('greenhouse_mqtt_input_dropped{') && l.includes(`reason="${reason}"`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
}

const results = (deviceId: string) => sub.messages.filter((m) => m.topic === `${ROOT}/devices/${deviceId}/result`);

beforeAll(async () => {
  broker = await startMosquitto();
  sub = await Subscriber.connect(broker.url, [`${ROOT}/#`, 'homeassistant/#']);
  outputs = fakeOutputs(defaultOutputs);
  gw = await startTestGateway({ greenhouseId: ID, mqtt: { url: broker.url, ...GATEWAY_CREDENTIALS } as never }, { hardware: { ...fakeHardware(outputs), ...fakeSensors().sensors } });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
  await sub.next((m) => m.topic === `${ROOT}/status` && m.payload === 'online', 15_000, 'status online');
}, 60_000);
afterAll(async () => {
  await sub?.close();
  await gw?.dispose();
  await broker?.dispose();
});

describe('MQTT input limits', () => {
  it('drops an oversized command unread: no answer, no switch, counted', async () => {
    const before = await dropped('oversized');
    await sub.publish(`${ROOT}/devices/fan-1/set`, `ON${' '.repeat(DEFAULT_INPUT_LIMITS.commandBytes)}`);
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'x'.repeat(64 * 1024));
    // Sync point: a command sent afterwards is answered, so the two before it have been handled.
    const answered = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result`, 15_000, 'OFF answer');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'OFF');
    expect(JSON.parse((await answered).payload)).toMatchObject({ command: 'OFF', ok: true });
    expect(results('fan-1')).toHaveLength(1);
    expect(outputs.get('relay-2')?.on ?? false).toBe(false);
    expect(await dropped('oversized')).toBe(before + 2);
  });

  it('answers a flood of junk on one device a burst of short answers that never echo it, and drops the rest', async () => {
    const before = await dropped('rate');
    const junk = 'explode-the-greenhouse-now';
    const sent = 200;
    await Promise.all(Array.from({ length: sent }, () => sub.publish(`${ROOT}/devices/light-1/set`, junk)));
    // Another device's commands are not held by that flood.
    const fan = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result` && m.payload.includes('"ok":true'), 15_000, 'fan answer');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'ON');
    expect(JSON.parse((await fan).payload)).toMatchObject({ command: 'ON', ok: true, status: 'ON' });

    const answers = results('light-1');
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.length).toBeLessThan(sent / 4);
    for (const answer of answers) {
      expect(answer.payload).not.toContain(junk);
      expect(JSON.parse(answer.payload)).toMatchObject({ command: null, ok: false, message: expect.stringMatching(/ON, OFF, OPEN or CLOSE/) });
    }
    const repliedBytes = answers.reduce((n, m) => n + m.payload.length, 0);
    expect(repliedBytes).toBeLessThan(sent * junk.length);
    expect(await dropped('rate')).toBe(before + sent - answers.length);
  });

  it('republishes once for a burst of Home Assistant birth messages', async () => {
    const config = 'homeassistant/switch/house-limits/fan-1/config';
    await sub.next((m) => m.topic === config, 15_000, 'fan config');
    const before = sub.messages.filter((m) => m.topic === config).length;
    await Promise.all(Array.from({ length: 100 }, () => sub.publish('homeassistant/status', 'online')));
    await sub.nextNew((m) => m.topic === config, 20_000, 'fan config again');
    // Sync point after the debounce fired: a command round trip.
    const sync = sub.nextNew((m) => m.topic === `${ROOT}/devices/fan-1/result`, 15_000, 'sync answer');
    await sub.publish(`${ROOT}/devices/fan-1/set`, 'OFF');
    await sync;
    expect(sub.messages.filter((m) => m.topic === config).length).toBe(before + 1);
  }, 40_000);
});
