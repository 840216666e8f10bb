import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { TestSocket } from '../support/ws.ts';

const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const GH = 'greenhouse-001';

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let viewer: string;
let outputs: Map<string, FakeOutput>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  outputs = fakeOutputs(defaultOutputs);
  gw = await startTestGateway({}, { hardware: fakeHardware(outputs) });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'alice' });
  viewer = await registerUser(http, { username: 'victor', role: 'viewer' }, admin);
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await gw.dispose();
});

const list = async () => (await http.get(`/api/devices/${GH}`, admin)).body.data as any[];
const find = async (deviceId: string) => (await list()).find((d) => d.deviceId === deviceId);
const fan = { deviceName: 'Side Fan', deviceId: 'fan_123456', deviceType: 'FAN', powerConsumption: 40 };

/** A refused call: status, a message naming the field, and the device list unchanged. */
async function expectRefused(call: () => Promise<{ status: number; body: any }>, status: number, names: string | RegExp) {
  const before = await list();
  const result = await call();
  expect(result.status).toBe(status);
  expect(result.body.success).toBe(false);
  expect(result.body.message).toMatch(names);
  expect(await list()).toEqual(before);
  return result;
}

describe('configured outputs appear as devices', () => {
  it('lists the devices of the wiring config, bound and OFF/CLOSED', async () => {
    const devices = await list();
    expect(devices.map((d) => d.deviceId)).toEqual(['pump-1', 'fan-1', 'light-1', 'heater-1', 'cooling-1', 'window-1']);
    expect(devices.find((d) => d.deviceId === 'window-1')).toMatchObject({ status: 'CLOSED', deviceType: 'SERVO', output: { outputId: 'servo-1', kind: 'servo', available: true } });
    expect(devices.every((d) => d.status === 'OFF' || d.status === 'CLOSED')).toBe(true);
  });

  it('the default alias works and other greenhouses are 404', async () => {
    expect((await http.get('/api/devices/default', admin)).body.data).toHaveLength(6);
    expect((await http.get('/api/devices/greenhouse-999', admin)).status).toBe(404);
  });

  it('lists the free outputs', async () => {
    const free = (await http.get(`/api/devices/free-outputs/${GH}`, admin)).body.data;
    expect(free.map((o: any) => o.outputId)).toEqual(['relay-6', 'relay-7', 'relay-8']);
  });
});

describe('POST /api/devices', () => {
  it('adds a device: 201, message, defaults, deviceAdded to sockets', async () => {
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(admin);
    const result = await http.post('/api/devices', fan, admin);
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ success: true, message: 'Device added successfully', data: { ...fan, location: 'Main Greenhouse', status: 'OFF', autoMode: false, output: null } });
    expect((await socket.next('deviceAdded')).deviceId).toBe('fan_123456');
  });

  it('binds a free output; a taken one is 409, an unknown one 400, a servo output 400', async () => {
    const bound = await http.post('/api/devices', { deviceName: 'Mister', deviceId: 'mister-1', deviceType: 'WATER_PUMP', outputId: 'relay-6' }, admin);
    expect(bound.status).toBe(201);
    expect(bound.body.data.output).toMatchObject({ outputId: 'relay-6', kind: 'relay' });
    await expectRefused(() => http.post('/api/devices', { deviceName: 'X', deviceId: 'x-1', deviceType: 'FAN', outputId: 'relay-6' }, admin), 409, /outputId/);
    await expectRefused(() => http.post('/api/devices', { deviceName: 'X', deviceId: 'x-1', deviceType: 'FAN', outputId: 'relay-99' }, admin), 400, /outputId/);
    await expectRefused(() => http.post('/api/devices', { deviceName: 'X', deviceId: 'x-1', deviceType: 'FAN', outputId: 'servo-1' }, admin), 409, /outputId/);
  });

  it.each([
    ['unknown type', { ...fan, deviceId: 'a1', deviceType: 'TOASTER' }, /deviceType/],
    ['SERVO cannot be added', { ...fan, deviceId: 'a1', deviceType: 'SERVO' }, /deviceType/],
    ['negative power', { ...fan, deviceId: 'a1', powerConsumption: -1 }, /powerConsumption/],
    ['power as a string', { ...fan, deviceId: 'a1', powerConsumption: '40' }, /powerConsumption/],
    ['missing name', { deviceId: 'a1', deviceType: 'FAN' }, /deviceName/],
    ['empty name', { ...fan, deviceId: 'a1', deviceName: '' }, /deviceName/],
    ['bad id characters', { ...fan, deviceId: 'a b' }, /deviceId/],
    ['id too long', { ...fan, deviceId: 'a'.repeat(65) }, /deviceId/],
  ])('400 for %s', async (_name, body, field) => {
    await expectRefused(() => http.post('/api/devices', body, admin), 400, field);
  });

  it('409 for a duplicate deviceId, 403 for a viewer', async () => {
    await expectRefused(() => http.post('/api/devices', fan, admin), 409, /deviceId/);
    await expectRefused(() => http.post('/api/devices', { ...fan, deviceId: 'v-1' }, viewer), 403, /read-only/);
  });
});

describe('PUT and DELETE /api/devices/:deviceId', () => {
  it('updates name, location, power and binding', async () => {
    const result = await http.put('/api/devices/fan_123456', { deviceName: 'North Fan', location: 'North bay', powerConsumption: 55, outputId: 'relay-7' }, admin);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ deviceName: 'North Fan', location: 'North bay', powerConsumption: 55, output: { outputId: 'relay-7' } });
    const unbound = await http.put('/api/devices/fan_123456', { outputId: null }, admin);
    expect(unbound.body.data.output).toBeNull();
  });

  it('refuses bad updates and unknown devices', async () => {
    await expectRefused(() => http.put('/api/devices/fan_123456', { powerConsumption: -5 }, admin), 400, /powerConsumption/);
    await expectRefused(() => http.put('/api/devices/nope', { deviceName: 'x' }, admin), 404, /nope/);
    await expectRefused(() => http.put('/api/devices/fan_123456', { outputId: 'relay-1' }, admin), 409, /outputId/);
    await expectRefused(() => http.put('/api/devices/fan_123456', { deviceName: 'x' }, viewer), 403, /read-only/);
  });

  it('deletes: switches off first, then removes (deviceRemoved)', async () => {
    await http.post('/api/devices', { deviceName: 'Temp', deviceId: 'temp-1', deviceType: 'LED_LIGHT', outputId: 'relay-8' }, admin);
    await http.post('/api/devices/temp-1/control', { action: 'on' }, admin);
    expect(outputs.get('relay-8')!.on).toBe(true);
    await expectRefused(() => http.del('/api/devices/temp-1', viewer), 403, /read-only/);
    const result = await http.del('/api/devices/temp-1', admin);
    expect(result.body).toMatchObject({ success: true, message: 'Device removed' });
    expect(outputs.get('relay-8')!.on).toBe(false);
    expect(await find('temp-1')).toBeUndefined();
    await expectRefused(() => http.del('/api/devices/temp-1', admin), 404, /temp-1/);
  });
});

describe('POST /api/devices/:deviceId/control', () => {
  it('drives the output, answers {success, message, data: {device, controlLog}, controlLog}, logs the user', async () => {
    const result = await http.post('/api/devices/fan-1/control', { action: 'toggle' }, admin);
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('Ventilation Fan turned on');
    expect(result.body.data.device).toMatchObject({ deviceId: 'fan-1', status: 'ON' });
    expect(result.body.data.device.lastActivated).not.toBeNull();
    expect(result.body.controlLog).toMatchObject({ deviceId: 'fan-1', action: 'toggle', previousStatus: 'OFF', newStatus: 'ON', source: 'user', actor: 'alice' });
    expect(result.body.data.controlLog).toEqual(result.body.controlLog);
    expect(outputs.get('relay-2')!.on).toBe(true);
    const log = (await http.get('/api/devices/fan-1/log', admin)).body.data;
    expect(log[0]).toMatchObject({ source: 'user', actor: 'alice', newStatus: 'ON' });
  });

  it('servo open/close and pump turn_on/turn_off', async () => {
    expect((await http.post('/api/devices/window-1/control', { action: 'open' }, admin)).body.data.device.status).toBe('OPEN');
    expect((await http.post('/api/devices/window-1/control', { action: 'close' }, admin)).body.data.device.status).toBe('CLOSED');
    expect((await http.post('/api/devices/pump-1/control', { action: 'turn_on' }, admin)).body.data.device.status).toBe('ON');
    expect((await http.post('/api/devices/pump-1/toggle', undefined, admin)).body.data.device.status).toBe('OFF');
  });

  it('an unbound device changes status and says it is not connected to hardware', async () => {
    const result = await http.post('/api/devices/fan_123456/control', { action: 'on' }, admin);
    expect(result.body.message).toContain('not connected to hardware');
    expect(result.body.data.device.status).toBe('ON');
    await http.post('/api/devices/fan_123456/control', { action: 'off' }, admin);
  });

  it('refuses bad actions, unknown devices and viewers, changing nothing', async () => {
    await expectRefused(() => http.post('/api/devices/fan-1/control', { action: 'explode' }, admin), 400, /action/);
    await expectRefused(() => http.post('/api/devices/fan-1/control', { action: 'open' }, admin), 400, /action/);
    await expectRefused(() => http.post('/api/devices/fan-1/control', {}, admin), 400, /action/);
    await expectRefused(() => http.post('/api/devices/ghost/control', { action: 'on' }, admin), 404, /ghost/);
    await expectRefused(() => http.post('/api/devices/light-1/control', { action: 'on' }, viewer), 403, /read-only/);
  });

  it('maintenance mode: 409 for switching on, switching off still works', async () => {
    gw.settings.updateSystem({ maintenanceMode: true });
    try {
      await expectRefused(() => http.post('/api/devices/light-1/control', { action: 'on' }, admin), 409, /Maintenance mode/);
      const off = await http.post('/api/devices/fan-1/control', { action: 'off' }, admin);
      expect(off.status).toBe(200);
    } finally {
      gw.settings.updateSystem({ maintenanceMode: false });
    }
  });

  it('a hardware failure is a 503 and changes nothing', async () => {
    outputs.get('relay-3')!.failWith = new Error('EIO');
    try {
      await expectRefused(() => http.post('/api/devices/light-1/control', { action: 'on' }, admin), 503, /relay-3/);
    } finally {
      outputs.get('relay-3')!.failWith = null;
    }
  });
});

describe('automation settings and stats', () => {
  it('saves rules and auto mode', async () => {
    const result = await http.post('/api/devices/fan-1/automation', { automationRules: { temperatureHigh: 30, humidityHigh: 85, temperatureLow: null, humidityLow: null, soilMoistureLow: null, lightLevelLow: null }, autoMode: true }, admin);
    expect(result.body).toMatchObject({ success: true, message: 'Automation settings updated successfully', data: { autoMode: true, automationRules: { temperatureHigh: 30, humidityHigh: 85 } } });
  });

  it.each([
    ['a string', { automationRules: { temperatureHigh: '30' } }, /automationRules\.temperatureHigh/],
    ['humidity over 100', { automationRules: { humidityHigh: 120 } }, /automationRules\.humidityHigh/],
    ['negative light', { automationRules: { lightLevelLow: -1 } }, /automationRules\.lightLevelLow/],
    ['autoMode as a string', { autoMode: 'yes' }, /autoMode/],
  ])('400 for %s', async (_name, body, field) => {
    await expectRefused(() => http.post('/api/devices/fan-1/automation', body, admin), 400, field);
  });

  it('404 and 403', async () => {
    await expectRefused(() => http.post('/api/devices/ghost/automation', { autoMode: true }, admin), 404, /ghost/);
    await expectRefused(() => http.post('/api/devices/fan-1/automation', { autoMode: false }, viewer), 403, /read-only/);
  });

  it('stats count active (ON or OPEN), auto mode and the power in use', async () => {
    await http.post('/api/devices/light-1/control', { action: 'on' }, admin);
    await http.post('/api/devices/window-1/control', { action: 'open' }, admin);
    const stats = (await http.get(`/api/devices/stats/${GH}`, viewer)).body.data;
    expect(stats.overall).toEqual({ totalDevices: 8, totalActiveDevices: 2, totalAutoModeDevices: 1, totalPowerConsumption: 155 });
    expect(stats.byType.find((t: any) => t._id === 'FAN')).toEqual({ _id: 'FAN', totalDevices: 2, activeDevices: 0, autoModeDevices: 1, totalPowerConsumption: 0 });
  });
});

describe('quick actions', () => {
  it('optimize power switches off manual devices no rule needs and reports the watts saved', async () => {
    const result = await http.post(`/api/devices/actions/optimize-power/${GH}`, undefined, admin);
    expect(result.body.data).toEqual({ devicesTurnedOff: 2, powerSavedW: 155 });
    expect(result.body.message).toContain('155 W');
  });

  it('enable auto mode turns auto on for devices with at least one rule', async () => {
    await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: 12 } }, admin);
    const result = await http.post(`/api/devices/actions/enable-auto/${GH}`, undefined, admin);
    expect(result.body.data).toEqual({ devicesEnabled: 1 });
    expect((await find('heater-1')).autoMode).toBe(true);
    expect((await find('light-1')).autoMode).toBe(false);
  });

  it('turn off all switches every running device off and takes devices out of auto mode', async () => {
    // The pump was switched off moments ago above: its minimum off time would refuse the restart.
    await http.put(`/api/settings/${GH}/devices`, { deviceSettings: { minOffSeconds: 0 } }, admin);
    await http.post('/api/devices/light-1/control', { action: 'on' }, admin);
    await http.post('/api/devices/pump-1/control', { action: 'turn_on' }, admin);
    await expectRefused(() => http.post(`/api/devices/actions/turn-off-all/${GH}`, undefined, viewer), 403, /read-only/);
    const autoBefore = (await list()).filter((d) => d.autoMode).length;
    const result = await http.post(`/api/devices/actions/turn-off-all/${GH}`, undefined, admin);
    // Devices in auto mode since the tests above (heater-1 at least): their rules must not switch them
    // back on, so auto mode goes off too.
    expect(autoBefore).toBeGreaterThan(0);
    expect(result.body.data).toEqual({ devicesTurnedOff: 2, autoModeDisabled: autoBefore });
    expect(result.body.message).toBe(`2 device(s) turned off; auto mode switched off on ${autoBefore}`);
    expect((await list()).filter((d) => d.status === 'ON' || d.status === 'OPEN')).toEqual([]);
    expect((await list()).filter((d) => d.autoMode)).toEqual([]);
  });
});

describe('websocket device-control', () => {
  it('reaches other sockets as deviceUpdate and device-control-update, logged with source user', async () => {
    const sender = new TestSocket(gw.url);
    const watcher = new TestSocket(gw.url);
    sockets.push(sender, watcher);
    await sender.join(admin);
    await watcher.join(viewer);
    sender.send('device-control', { deviceId: 'light-1', action: 'toggle', greenhouseId: GH, extras: {} });
    const update = await watcher.next('device-control-update', (d) => d.deviceId === 'light-1');
    expect(update).toMatchObject({ status: 'ON', controlLog: { source: 'user', actor: 'alice' } });
    expect((await watcher.next('deviceUpdate', (d) => d.deviceId === 'light-1')).status).toBe('ON');
    expect((await find('light-1')).status).toBe('ON');
  });

  it('a viewer gets a 403 error event; maintenance gives 409; bad input 400 naming the field; unknown device 404', async () => {
    const socket = new TestSocket(gw.url);
    const writer = new TestSocket(gw.url);
    sockets.push(socket, writer);
    await socket.join(viewer);
    await writer.join(admin);
    const before = await list();
    socket.send('device-control', { deviceId: 'fan-1', action: 'on', greenhouseId: GH });
    expect(await socket.next('error')).toMatchObject({ status: 403, event: 'device-control' });

    writer.send('device-control', { deviceId: 'fan-1', action: 'explode', greenhouseId: GH });
    expect((await writer.next('error', (e) => e.status === 400)).message).toMatch(/action/);
    writer.send('device-control', { action: 'on', greenhouseId: GH });
    expect((await writer.next('error', (e) => /deviceId/.test(e.message))).status).toBe(400);
    writer.send('device-control', { deviceId: 'ghost', action: 'on', greenhouseId: GH });
    expect((await writer.next('error', (e) => e.status === 404)).message).toMatch(/ghost/);

    gw.settings.updateSystem({ maintenanceMode: true });
    try {
      writer.send('device-control', { deviceId: 'fan-1', action: 'on', greenhouseId: GH });
      expect((await writer.next('error', (e) => e.status === 409)).message).toMatch(/Maintenance mode/);
    } finally {
      gw.settings.updateSystem({ maintenanceMode: false });
    }
    expect(await list()).toEqual(before);
  });

  it('is as strict as REST and worded like it: an unknown key is refused, naming it, and nothing is switched or logged', async () => {
    const writer = new TestSocket(gw.url);
    sockets.push(writer);
    await writer.join(admin);
    const before = await list();
    const logBefore = (await http.get('/api/devices/fan-1/log', admin)).body.data;

    const cases: Array<[unknown, string]> = [
      [{ deviceId: 'fan-1', action: 'off', greenhouseId: GH, zz: 1 }, 'Invalid device-control: zz is not an accepted field'],
      [{ deviceId: 'fan-1', greenhouseId: GH }, 'Invalid device-control: action is required'],
      [{ deviceId: 'fan-1', action: 'explode', greenhouseId: GH }, 'Invalid device-control: action has an invalid value'],
      [{ deviceId: 'fan-1', action: 'on', greenhouseId: GH, extras: 5 }, 'Invalid device-control: extras must be object'],
      ['fan-1', 'Invalid device-control: data must be object'],
    ];
    for (const [data, message] of cases) {
      const from = writer.messages.length;
      writer.send('device-control', data);
      expect(await writer.next('error', () => true, 5000, from)).toEqual({ event: 'device-control', status: 400, message });
    }
    // REST says the same of the same mistakes.
    const rest = await http.post('/api/devices/fan-1/control', { action: 'off', zz: 1 }, admin);
    expect(rest.body.message).toBe('Invalid body: zz is not an accepted field');
    expect((await http.post('/api/devices/fan-1/control', { action: 'explode' }, admin)).body.message).toBe('Invalid body: action has an invalid value');
    expect((await http.post('/api/devices/fan-1/control', {}, admin)).body.message).toBe('Invalid body: action is required');
    expect(await list()).toEqual(before);
    expect((await http.get('/api/devices/fan-1/log', admin)).body.data).toEqual(logBefore);
  });
});
