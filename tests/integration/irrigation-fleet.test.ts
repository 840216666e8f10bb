// A pump's water today in MQTT (a retained JSON topic beside its state) and in /api/metrics, against a
// real Mosquitto and the real gateway.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';

const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
let broker: Broker;
let gw: TestGateway | null = null;
let sub: Subscriber | null = null;
beforeAll(async () => {
  broker = await startMosquitto();
});
afterAll(async () => broker?.dispose());
afterEach(async () => {
  await sub?.close();
  await gw?.dispose();
});

describe('water in MQTT and metrics', () => {
  it('publishes the pump water of today on devices/<id>/water after each switch, and exports it as gauges', async () => {
    const id = 'house-water';
    sub = await Subscriber.connect(broker.url, [`greenhouse/${id}/#`]);
    // The pump's output says 2 L/min in the wiring config.
    const outputs = defaultOutputs.map((o) => (o.outputId === 'relay-1' ? { ...o, flowLitresPerMinute: 2 } : o));
    gw = await startTestGateway(
      { greenhouseId: id, outputs: outputs as never, mqtt: { url: broker.url, ...GATEWAY_CREDENTIALS } as never },
      { hardware: { ...fakeHardware(fakeOutputs(defaultOutputs)), ...fakeSensors({ levelCm: 50 }).sensors } },
    );
    const http = httpClient(gw.url);
    const admin = await registerUser(http, { username: 'grower' });
    expect((await http.get(`/api/devices/${id}`, admin)).body.data.find((d: { deviceId: string }) => d.deviceId === 'pump-1').flowLitresPerMinute).toBe(2);
    expect((await http.post('/api/devices/pump-1/control', { action: 'turn_on' }, admin)).status).toBe(200);
    expect((await http.post('/api/devices/pump-1/control', { action: 'turn_off' }, admin)).status).toBe(200);
    const message = await sub.next((m) => m.topic === `greenhouse/${id}/devices/pump-1/water` && JSON.parse(m.payload).pulses === 1, 15_000, 'water today');
    expect(message.retain).toBe(true);
    expect(JSON.parse(message.payload)).toMatchObject({ pulses: 1, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const metrics = (await http.get<string>('/api/metrics', admin)).body;
    expect(metrics).toMatch(/greenhouse_pump_pulses_today\{device_id="pump-1",greenhouse_id="house-water"\} 1/);
    expect(metrics).toMatch(/greenhouse_pump_water_litres_today\{device_id="pump-1",greenhouse_id="house-water"\} [0-9.]+/);
    expect(metrics).toMatch(/greenhouse_pump_run_seconds_today\{device_id="pump-1",greenhouse_id="house-water"\} [0-9.]+/);
  });
});
