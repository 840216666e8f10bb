import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { databaseChecksum } from '../support/db-checksum.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/**
 * "a pump's relay can be unbound and bound to a new device typed FAN: switched on, no
 * maximum run time and no dry-run lockout apply". An output now drives only its wired type, and
 * safety follows the wiring even if a device row says otherwise.
 */
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const GH = 'greenhouse-001';

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let outputs: Map<string, FakeOutput>;
const clock = new ManualClock(Date.parse('2026-06-01T08:00:00Z'));

beforeAll(async () => {
  outputs = fakeOutputs(defaultOutputs);
  gw = await startTestGateway({}, { hardware: fakeHardware(outputs), clock });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'boss' });
});
afterAll(() => gw.dispose());

const device = async (deviceId: string) => (await http.get(`/api/devices/${GH}`, admin)).body.data.find((d: any) => d.deviceId === deviceId);

describe('outputs drive only their wired type', () => {
  it('lists each free output with the type it is wired for', async () => {
    const free = (await http.get(`/api/devices/free-outputs/${GH}`, admin)).body.data;
    expect(free).toEqual(expect.arrayContaining([expect.objectContaining({ outputId: 'relay-6', type: 'WATER_PUMP' }), expect.objectContaining({ outputId: 'relay-7', type: 'FAN' })]));
  });

  it('refuses to rebind a pump relay to a new FAN device (400 naming outputId), changing nothing', async () => {
    expect((await http.put('/api/devices/pump-1', { outputId: null }, admin)).status).toBe(200);
    const before = databaseChecksum(gw);
    const add = await http.post('/api/devices', { deviceName: 'Sneaky fan', deviceId: 'fan-x', deviceType: 'FAN', outputId: 'relay-1' }, admin);
    expect(add.status).toBe(400);
    expect(add.body.message).toMatch(/outputId 'relay-1' is wired to a WATER_PUMP and cannot drive a FAN/);
    const rebind = await http.put('/api/devices/fan-1', { outputId: 'relay-1' }, admin);
    expect(rebind.status).toBe(400);
    expect(rebind.body.message).toMatch(/wired to a WATER_PUMP/);
    expect(databaseChecksum(gw)).toBe(before);
    // The pump goes back to its relay.
    expect((await http.put('/api/devices/pump-1', { outputId: 'relay-1' }, admin)).status).toBe(200);
  });

  it('binds a device of the wired type to a free output', async () => {
    const add = await http.post('/api/devices', { deviceName: 'Mister', deviceId: 'mister-1', deviceType: 'WATER_PUMP', outputId: 'relay-6' }, admin);
    expect(add.status).toBe(201);
    expect((await http.post('/api/devices', { deviceName: 'Wrong', deviceId: 'wrong-1', deviceType: 'HEATER', outputId: 'relay-7' }, admin)).status).toBe(400);
  });
});

describe('safety follows the wiring, not the device row', () => {
  it('a row that says FAN on a pump relay still gets the pump maximum run time', async () => {
    // What an older gateway (or a hand-edited database) could hold: a FAN row bound to the pump relay.
    await http.put('/api/devices/pump-1', { outputId: null }, admin);
    await http.post('/api/devices', { deviceName: 'Disguised', deviceId: 'disguised-1', deviceType: 'FAN' }, admin);
    gw.database.sqlite.prepare("UPDATE devices SET output_id = 'relay-1' WHERE device_id = 'disguised-1'").run();

    const on = await http.post('/api/devices/disguised-1/control', { action: 'on' }, admin);
    expect(on.status).toBe(200);
    expect(outputs.get('relay-1')!.on).toBe(true);
    const { pumpMaxRunSeconds } = (await http.get(`/api/settings/${GH}`, admin)).body.data.deviceSettings;
    clock.advance(pumpMaxRunSeconds * 1000 + 1000);
    await expect.poll(async () => (await device('disguised-1')).status).toBe('OFF');
    expect(outputs.get('relay-1')!.on).toBe(false);
    const log = (await http.get('/api/devices/disguised-1/log', admin)).body.data;
    expect(log[0]).toMatchObject({ source: 'safety' });
  });

  it('undoes such a binding at the next start', async () => {
    await gw.stop();
    gw = Object.assign(await startTestGateway({ dataDir: gw.dataDir }, { hardware: fakeHardware(fakeOutputs(defaultOutputs)), clock }), {});
    http = httpClient(gw.url);
    admin = (await http.post('/api/auth/login', { username: 'boss', password: 'correct-horse-1' })).body.token;
    expect((await device('disguised-1')).output).toBeNull();
  });
});
