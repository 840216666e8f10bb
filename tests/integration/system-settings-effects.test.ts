// Each system setting changed over HTTP takes effect in the running gateway: maintenance mode in device
// control, updateInterval in the sampler's tick times (ManualClock). Retention and backups are covered
// in data-lifecycle.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let outputs: Map<string, FakeOutput>;
let clock: ManualClock;
const ID = 'greenhouse-001';
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;

beforeAll(async () => {
  outputs = fakeOutputs(defaultOutputs);
  clock = new ManualClock();
  gw = await startTestGateway({}, { hardware: { ...fakeHardware(outputs), ...fakeSensors().sensors }, clock });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'boss' });
});
afterAll(async () => gw?.dispose());

const setSystem = (systemSettings: object) => http.put(`/api/settings/${ID}/system`, { systemSettings }, admin);

describe('system settings take effect', () => {
  it('maintenance mode set over HTTP refuses switching on (409), allows off, and lifts when cleared', async () => {
    const devices = (await http.get(`/api/devices/${ID}`, admin)).body.data as Array<{ deviceId: string; status: string; deviceType: string }>;
    const light = devices.find((d) => d.deviceType === 'LED_LIGHT')!;
    expect(light).toBeDefined();
    expect((await setSystem({ maintenanceMode: true })).status).toBe(200);

    const refused = await http.post(`/api/devices/${light.deviceId}/control`, { action: 'on' }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/Maintenance mode/);
    const after = (await http.get(`/api/devices/${ID}`, admin)).body.data as typeof devices;
    expect(after.find((d) => d.deviceId === light.deviceId)!.status).toBe(light.status);
    expect([...outputs.values()].every((o) => o.calls.length === 0)).toBe(true);
    expect((await http.post(`/api/devices/${light.deviceId}/control`, { action: 'off' }, admin)).status).toBe(200);

    expect((await setSystem({ maintenanceMode: false })).status).toBe(200);
    const allowed = await http.post(`/api/devices/${light.deviceId}/control`, { action: 'on' }, admin);
    expect(allowed.status).toBe(200);
  });

  it('an updateInterval change reaches settingsChanged listeners with the old and new value', async () => {
    const seen: Array<[number, number]> = [];
    const off = gw.bus.on('settingsChanged', 'test', ({ settings, previous }) =>
      seen.push([previous.systemSettings.updateInterval, settings.systemSettings.updateInterval]),
    );
    expect((await setSystem({ updateInterval: 2 })).status).toBe(200);
    expect((await setSystem({ updateInterval: 99999 })).status).toBe(400);
    off();
    expect(seen).toEqual([[5, 2]]);
  });

  it("the sampler's ticks follow an updateInterval change at once", async () => {
    expect((await setSystem({ updateInterval: 2 })).status).toBe(200);
    await clock.advanceAsync(2000, 1000);
    const ticksMs: number[] = [];
    const off = gw.bus.on('samplerTicked', 'test', ({ at }) => ticksMs.push(Date.parse(at)));
    await clock.advanceAsync(20_000, 1000);
    const changedAtMs = clock.now();
    expect((await setSystem({ updateInterval: 3 })).status).toBe(200);
    await clock.advanceAsync(15_000, 1000);
    off();
    const gaps = (list: number[]) => list.slice(1).map((t, i) => t - list[i]!);
    const before = ticksMs.filter((t) => t < changedAtMs);
    const after = ticksMs.filter((t) => t > changedAtMs);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(new Set(gaps(before))).toEqual(new Set([2000]));
    expect(after.length).toBeGreaterThanOrEqual(4);
    expect(new Set(gaps(after))).toEqual(new Set([3000]));
  });
});
