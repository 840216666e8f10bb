// The pump run budget against commands on the MQTT bridge (a real Mosquitto started here): OFF/ON
// every 4.5 s from Home Assistant or Node-RED must not run a 6 s pump past 6 s either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';

const ID = 'house-budget';
const ROOT = `greenhouse/${ID}`;
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;

describe('MQTT commands obey the pump run budget', () => {
  let broker: Broker;
  let sub: Subscriber;
  let gw: TestGateway;
  const clock = new ManualClock(Date.parse('2026-03-10T02:00:00Z'));
  const outputs = fakeOutputs(defaultOutputs);

  beforeAll(async () => {
    broker = await startMosquitto();
    sub = await Subscriber.connect(broker.url, [`${ROOT}/#`]);
    gw = await startTestGateway({ greenhouseId: ID, mqtt: { url: broker.url, ...GATEWAY_CREDENTIALS } as never }, { clock, hardware: { ...fakeHardware(outputs), ...fakeSensors().sensors } });
    const http = httpClient(gw.url);
    const admin = await registerUser(http, { username: 'grower' });
    await http.put(`/api/settings/${ID}/devices`, { deviceSettings: { pumpMaxRunSeconds: 6, pumpRunWindowMinutes: 60, minOnSeconds: 0, minOffSeconds: 0 } }, admin);
    await sub.next((m) => m.topic === `${ROOT}/status` && m.payload === 'online', 15_000, 'status online');
  });
  afterAll(async () => {
    await gw?.dispose();
    await sub?.close();
    await broker?.dispose();
  });

  async function command(payload: 'ON' | 'OFF') {
    const result = sub.nextNew((m) => m.topic === `${ROOT}/devices/pump-1/result`, 15_000, `result of ${payload}`);
    await sub.publish(`${ROOT}/devices/pump-1/set`, payload);
    return JSON.parse((await result).payload) as { ok: boolean; message: string; lock?: string };
  }

  it('OFF/ON every 4.5 s: cut at 6 s of running, then refused with the run_budget lock', async () => {
    expect(await command('ON')).toMatchObject({ ok: true });
    await clock.advanceAsync(4_500, 500);
    expect(await command('OFF')).toMatchObject({ ok: true });
    expect(await command('ON')).toMatchObject({ ok: true });
    await clock.advanceAsync(4_500, 500);
    expect(outputs.get('relay-1')!.on).toBe(false);
    const refused = await command('ON');
    expect(refused).toMatchObject({ ok: false, lock: 'run_budget', message: expect.stringMatching(/Run budget spent: 6 s in the last 60 min/) });
    expect(outputs.get('relay-1')!.on).toBe(false);
    expect(gw.database.sqlite.prepare("SELECT source, actor FROM control_log WHERE device_id = 'pump-1' ORDER BY id DESC").get()).toEqual({ source: 'safety', actor: 'PUMP_MAX_RUNTIME' });
  });
});
