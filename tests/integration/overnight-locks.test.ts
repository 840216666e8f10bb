import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { TestSocket } from '../support/ws.ts';

/*
 * Run budgets, run limits, locks and state reasons over real HTTP and a real websocket, on the real
 * gateway (real SQLite and migrations) with fake sensors and relays and a ManualClock.
 */
const GH = 'greenhouse-001';
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;

let clock: ManualClock;
let sensors: ReturnType<typeof fakeSensors>;
let outputs: Map<string, FakeOutput>;
let gw: TestGateway;
let http: HttpClient;
let admin: string;
const sockets: TestSocket[] = [];

async function start(dataDir?: string): Promise<void> {
  gw = await startTestGateway(dataDir ? { dataDir } : {}, { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
  http = httpClient(gw.url);
}

/** Moves time in 500 ms steps, letting the sampler, timers and queued switches run at each. */
async function pass(ms: number, stepMs = 500): Promise<void> {
  await clock.advanceAsync(ms, stepMs);
  for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
}

const device = async (deviceId: string) => (await http.get(`/api/devices/${GH}`, admin)).body.data.find((d: { deviceId: string }) => d.deviceId === deviceId);
const pumpOn = () => http.post('/api/devices/pump-1/control', { action: 'turn_on' }, admin);
const pumpOff = () => http.post('/api/devices/pump-1/control', { action: 'turn_off' }, admin);
const activeAlert = async (alertType: string) =>
  ((await http.get(`/api/alerts/active/${GH}`, admin)).body.data as Array<{ _id: string; alertType: string; message: string }>).find((a) => a.alertType === alertType);

beforeEach(async () => {
  clock = new ManualClock(Date.parse('2026-03-10T02:00:00Z'));
  sensors = fakeSensors({ climate: { temperatureC: 15, humidityPct: 70 }, levelCm: 50 });
  outputs = fakeOutputs(defaultOutputs);
  await start();
  admin = await registerUser(http, { username: 'grower' });
  // A minimum on time must be below the budget (it holds rule-driven pumps on); these tests switch by hand.
  const limits = { pumpMaxRunSeconds: 6, pumpRunWindowMinutes: 60, minOnSeconds: 0, minOffSeconds: 0 };
  expect((await http.put(`/api/settings/${GH}/devices`, { deviceSettings: limits }, admin)).status).toBe(200);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await gw.dispose();
});

describe('the pump run budget', () => {
  it('OFF/ON every 4.5 s from REST never runs a 6 s pump past 6 s; then 409 with the lock and when it ends', async () => {
    expect((await pumpOn()).status).toBe(200);
    await pass(4_500);
    await pumpOff();
    await pumpOn();
    await pass(4_500);
    // 4.5 s + 1.5 s: the budget is spent and safety switched it off mid-run.
    expect(outputs.get('relay-1')!.on).toBe(false);
    const refused = await pumpOn();
    expect(refused.status).toBe(409);
    // Spent at 02:00:06 of the first hour; 1 s of it (a useful run) is free again at 03:00:01.
    expect(refused.body).toMatchObject({
      success: false,
      message: 'Cannot turn on Irrigation Pump: Run budget spent: 6 s in the last 60 min (limit 6 s); available again at ' + localHm(Date.parse('2026-03-10T03:00:01Z')),
      lock: { kind: 'run_budget', until: '2026-03-10T03:00:01.000Z' },
    });
    const log = (await http.get('/api/devices/pump-1/log?limit=10', admin)).body.data;
    expect(log[0]).toMatchObject({ source: 'safety', actor: 'PUMP_MAX_RUNTIME', newStatus: 'OFF' });
    expect(outputs.get('relay-1')!.calls.filter((on) => on).length).toBe(2);
  });

  it('the same budget refuses the websocket device-control command, with the lock in the error', async () => {
    await pumpOn();
    await pass(7_000);
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(admin);
    socket.send('device-control', { deviceId: 'pump-1', action: 'turn_on', greenhouseId: GH });
    const error = await socket.next('error', (e) => e.event === 'device-control');
    expect(error).toMatchObject({ status: 409, lock: { kind: 'run_budget' }, message: expect.stringMatching(/Run budget spent/) });
    expect(outputs.get('relay-1')!.on).toBe(false);
  });

  it('a restart does not reset it: the budget is rebuilt from the control log', async () => {
    await pumpOn();
    await pass(7_000);
    const dataDir = gw.dataDir;
    await gw.stop();
    await start(dataDir);
    const refused = await pumpOn();
    expect(refused.status).toBe(409);
    expect(refused.body.lock.kind).toBe('run_budget');
    // An hour later the window has slid past it.
    await pass(60 * 60_000, 5_000);
    expect((await pumpOn()).status).toBe(200);
  });

  it('its PUMP_MAX_RUNTIME alert cannot be resolved while the budget is spent (409 saying why), then can', async () => {
    await pumpOn();
    await pass(7_000);
    const alert = await activeAlert('PUMP_MAX_RUNTIME');
    expect(alert).toBeDefined();
    const early = await http.put(`/api/alerts/${alert!._id}/resolve`, {}, admin);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/cannot be resolved while its cause persists: Run budget spent/);
    expect(await activeAlert('PUMP_MAX_RUNTIME')).toBeDefined();
    await pass(60 * 60_000, 5_000);
    expect((await http.put(`/api/alerts/${alert!._id}/resolve`, {}, admin)).status).toBe(200);
  });
});

describe('locks and state reasons on every answer and event', () => {
  it('a low tank locks the pump on the card at once (deviceUpdate), its alert stays while the tank is low, and both clear on refill', async () => {
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(admin);
    sensors.water.value = 4.2;
    await pass(5_000);
    const update = await socket.next('deviceUpdate', (d) => d.deviceId === 'pump-1' && d.locks.some((l: { kind: string }) => l.kind === 'dry_run'));
    expect(update.locks).toContainEqual({ kind: 'dry_run', text: 'Tank low (4.2 cm, minimum 10 cm): pump locked to protect it from running dry' });
    expect((await device('pump-1')).locks.map((l: { kind: string }) => l.kind)).toEqual(['dry_run']);

    const alert = await activeAlert('DRY_RUN_LOCKOUT');
    const refused = await http.put(`/api/alerts/${alert!._id}/resolve`, {}, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/while its cause persists: Tank low \(4\.2 cm/);
    expect((await http.del(`/api/alerts/${alert!._id}`, admin)).status).toBe(409);

    const from = socket.messages.length;
    sensors.water.value = 40;
    await pass(5_000);
    await socket.next('deviceUpdate', (d) => d.deviceId === 'pump-1' && d.locks.length === 0, 5000, from);
    expect(await activeAlert('DRY_RUN_LOCKOUT')).toBeUndefined();
  });

  it('the heater cut-off locks the heater and its alert stays while the air is above it', async () => {
    sensors.climate.value = { temperatureC: 38, humidityPct: 40 };
    await pass(5_000);
    expect((await device('heater-1')).locks).toContainEqual({ kind: 'cutoff', text: 'Air 38.0 °C is above the heater cut-off of 35 °C: heater locked' });
    const alert = await activeAlert('HEATER_CUTOFF');
    const refused = await http.put(`/api/alerts/${alert!._id}/resolve`, {}, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/while its cause persists: Air 38\.0 °C is above the heater cut-off/);
    sensors.climate.value = { temperatureC: 20, humidityPct: 40 };
    await pass(5_000);
    expect((await device('heater-1')).locks).toEqual([]);
    expect(await activeAlert('HEATER_CUTOFF')).toBeUndefined();
  });

  it('a minimum off time shows with its end, and the card is pushed again when it ends', async () => {
    await http.put(`/api/settings/${GH}/devices`, { deviceSettings: { minOffSeconds: 30 } }, admin);
    await pumpOn();
    await pass(2_000);
    const off = await pumpOff();
    expect(off.body.data.device.stateReason).toMatchObject({ source: 'user', text: 'Irrigation Pump turned off' });
    expect(off.body.data.device.locks).toEqual([
      { kind: 'min_off', text: `Resting: minimum off time of 30 s; available again at ${localHms(clock.now() + 30_000)}`, until: new Date(clock.now() + 30_000).toISOString() },
    ]);
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(admin);
    expect((await pumpOn()).body.lock.kind).toBe('min_off');
    await pass(31_000);
    await socket.next('deviceUpdate', (d) => d.deviceId === 'pump-1' && d.locks.length === 0);
    expect((await pumpOn()).status).toBe(200);
  });

  it('the device-control-update event carries stateReason and locks', async () => {
    const socket = new TestSocket(gw.url);
    sockets.push(socket);
    await socket.join(admin);
    await http.post('/api/devices/fan-1/control', { action: 'on' }, admin);
    const event = await socket.next('device-control-update', (d) => d.deviceId === 'fan-1');
    expect(event).toMatchObject({ status: 'ON', stateReason: { source: 'user', text: 'Ventilation Fan turned on' }, locks: [] });
  });
});

describe('run limits from every source', () => {
  it('a heater switched on by hand goes off after heaterMaxRunMinutes, with a HEATER_MAX_RUNTIME alert', async () => {
    await http.put(`/api/settings/${GH}/devices`, { deviceSettings: { heaterMaxRunMinutes: 2 } }, admin);
    // A first sampling tick: a heater is never switched on without a fresh air temperature.
    await pass(5_000);
    const on = await http.post('/api/devices/heater-1/control', { action: 'on' }, admin);
    expect(on.body.message).toBe('Heater turned on');
    await pass(119_000);
    expect(outputs.get('relay-4')!.on).toBe(true);
    await pass(2_000);
    expect(outputs.get('relay-4')!.on).toBe(false);
    expect((await http.get('/api/devices/heater-1/log?limit=1', admin)).body.data[0]).toMatchObject({ source: 'safety', actor: 'HEATER_MAX_RUNTIME' });
    expect(await activeAlert('HEATER_MAX_RUNTIME')).toBeDefined();
  });

  it('a heater switched on by hand goes off when its air sensor dies: it never runs blind', async () => {
    await pass(5_000);
    await http.post('/api/devices/heater-1/control', { action: 'on' }, admin);
    sensors.climate.mode = 'fail';
    try {
      await pass(30_000);
      expect(outputs.get('relay-4')!.on).toBe(false);
      expect((await http.get('/api/devices/heater-1/log?limit=1', admin)).body.data[0]).toMatchObject({
        source: 'safety',
        actor: 'SENSOR_LOSS',
        reason: expect.stringMatching(/^Air temperature unknown \(sensor fault\): heater switched off, a heater never runs blind$/),
      });
    } finally {
      sensors.climate.mode = 'ok';
      await pass(5_000);
    }
  });

  it('maxSwitchesPerHour refuses the next switch-on of an output until the oldest leaves the hour', async () => {
    await http.put(`/api/settings/${GH}/devices`, { deviceSettings: { maxSwitchesPerHour: 3 } }, admin);
    for (let i = 0; i < 3; i++) {
      expect((await http.post('/api/devices/fan-1/control', { action: 'on' }, admin)).status).toBe(200);
      await http.post('/api/devices/fan-1/control', { action: 'off' }, admin);
      await pass(1_000);
    }
    const refused = await http.post('/api/devices/fan-1/control', { action: 'on' }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.lock).toMatchObject({ kind: 'switch_rate', until: '2026-03-10T03:00:00.000Z' });
  });
});

describe('the control log', () => {
  it('filters by source and pages back with before; a bad source is a 400 naming it', async () => {
    await http.post('/api/devices/fan-1/control', { action: 'on' }, admin);
    await pass(1_000);
    await http.post('/api/devices/fan-1/control', { action: 'off' }, admin);
    const all = (await http.get('/api/devices/fan-1/log', admin)).body.data;
    expect(all.map((e: { newStatus: string }) => e.newStatus)).toEqual(['OFF', 'ON']);
    const older = (await http.get(`/api/devices/fan-1/log?before=${encodeURIComponent(all[0].timestamp)}`, admin)).body.data;
    expect(older.map((e: { newStatus: string }) => e.newStatus)).toEqual(['ON']);
    expect((await http.get('/api/devices/fan-1/log?source=safety', admin)).body.data).toEqual([]);
    const bad = await http.get('/api/devices/fan-1/log?source=robot', admin);
    const lonelyId = await http.get('/api/devices/fan-1/log?beforeId=3', admin);
    expect(lonelyId.status).toBe(400);
    expect(JSON.stringify(lonelyId.body)).toMatch(/beforeId/);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/source/);
  });

  it('pages on (time, id), so two entries of the same millisecond are both shown, one per page', async () => {
    await http.post('/api/devices/fan-1/control', { action: 'on' }, admin);
    await http.post('/api/devices/fan-1/control', { action: 'off' }, admin);
    const [newest] = (await http.get('/api/devices/fan-1/log?limit=1', admin)).body.data;
    const next = await http.get(`/api/devices/fan-1/log?limit=1&before=${encodeURIComponent(newest.timestamp)}&beforeId=${newest._id}`, admin);
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data[0]).toMatchObject({ timestamp: newest.timestamp, newStatus: 'ON' });
  });
});

describe('bad input: 400 naming the field, nothing stored', () => {
  it.each([
    ['a duty above 100', { sensorLossAction: 'duty', sensorLossDutyPct: 101 }, 'sensorLossDutyPct'],
    ['a duty without its share', { sensorLossAction: 'duty' }, 'sensorLossDutyPct'],
    ['a share without duty', { sensorLossAction: 'off', sensorLossDutyPct: 30 }, 'sensorLossDutyPct'],
    ['a band whose low is above its high', { automationRules: { temperatureLow: 18, offAt: { temperatureLow: 17 } } }, 'automationRules.offAt.temperatureLow'],
    ['a high band whose stop is above its start', { automationRules: { temperatureHigh: 28, offAt: { temperatureHigh: 30 } } }, 'automationRules.offAt.temperatureHigh'],
    ['an unknown offAt rule', { automationRules: { offAt: { co2High: 5 } } }, 'co2High'],
  ])('automation: %s', async (_name, body, field) => {
    const before = await device('heater-1');
    const res = await http.post('/api/devices/heater-1/automation', body, admin);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.errors)).toContain(field);
    expect(await device('heater-1')).toEqual(before);
  });

  it.each([
    ['/devices', { deviceSettings: { pumpRunWindowMinutes: 0 } }, 'deviceSettings.pumpRunWindowMinutes'],
    ['/devices', { deviceSettings: { heaterMaxRunMinutes: 1441 } }, 'deviceSettings.heaterMaxRunMinutes'],
    ['/devices', { deviceSettings: { maxSwitchesPerHour: 0 } }, 'deviceSettings.maxSwitchesPerHour'],
    ['/system', { systemSettings: { site: { latitude: 91, longitude: 0 } } }, 'systemSettings.site'],
    ['/system', { systemSettings: { site: { latitude: 50 } } }, 'systemSettings.site'],
  ])('settings%s: %j', async (path, body, field) => {
    const before = (await http.get(`/api/settings/${GH}`, admin)).body.data;
    const res = await http.put(`/api/settings/${GH}${path}`, body, admin);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    expect((await http.get(`/api/settings/${GH}`, admin)).body.data).toEqual(before);
  });

  it('the rule preview refuses a band on the wrong side too', async () => {
    const res = await http.post('/api/devices/heater-1/automation/preview', { automationRules: { temperatureLow: 18, offAt: { temperatureLow: 16 } }, hours: 1 }, admin);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'automationRules.offAt.temperatureLow' })]);
  });

  it('a duty with its share is stored and returned on the device', async () => {
    const res = await http.post('/api/devices/heater-1/automation', { sensorLossAction: 'duty', sensorLossDutyPct: 25 }, admin);
    expect(res.body.data).toMatchObject({ sensorLossAction: 'duty', sensorLossDutyPct: 25 });
    const back = await http.post('/api/devices/heater-1/automation', { sensorLossAction: 'off' }, admin);
    expect(back.body.data).toMatchObject({ sensorLossAction: 'off', sensorLossDutyPct: null });
  });
});

describe('systemSettings.site', () => {
  it('is applied at once: a sunrise schedule refused without it is accepted after it is set, no restart', async () => {
    const body = { automationRules: { schedule: { from: 'sunrise', to: 'sunrise+960' } }, autoMode: true };
    expect((await http.post('/api/devices/light-1/automation', body, admin)).status).toBe(400);
    const set = await http.put(`/api/settings/${GH}/system`, { systemSettings: { site: { latitude: 52.1, longitude: 5.1 } } }, admin);
    expect(set.body.data.systemSettings.site).toEqual({ latitude: 52.1, longitude: 5.1 });
    expect((await http.post('/api/devices/light-1/automation', body, admin)).status).toBe(200);
    // 02:00 UTC is night at 52° N in March: the photoperiod from sunrise keeps the light off, by rule.
    await pass(5_000);
    expect((await device('light-1')).status).toBe('OFF');
  });
});

function localHm(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
function localHms(ms: number): string {
  return `${localHm(ms)}:${String(new Date(ms).getSeconds()).padStart(2, '0')}`;
}
