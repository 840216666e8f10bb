import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * Water by the soil (docs/irrigation.md) on the real gateway: real HTTP, SQLite and migrations, fake
 * soil probe, tank sensor and relays, a ManualClock. The probe is scripted: the test raises it after a
 * pulse as the soil would once the water has soaked in.
 */
const GH = 'greenhouse-001';
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const START = Date.parse('2026-03-10T02:00:00Z');

let clock: ManualClock;
let sensors: ReturnType<typeof fakeSensors>;
let outputs: Map<string, FakeOutput>;
let gw: TestGateway;
let http: HttpClient;
let admin: string;

const PROGRAM = { startBelowPct: 30, targetPct: 40, pulseSeconds: 20, soakMinutes: 5, maxPulses: 4, maxRunSecondsPerDay: 600 };

async function start(dataDir?: string): Promise<void> {
  gw = await startTestGateway(dataDir ? { dataDir } : {}, { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
  http = httpClient(gw.url);
}

/**
 * The soil the probe reads. Each 5 s sample differs from the last by 0.01 point of ADC noise, as a real
 * probe's does; a value that never moves is judged stuck (server/sensors/stuck.ts).
 */
let soilPct = 20;

/**
 * Moves time in steps, letting the sampler, timers and queued switches run at each. Steps stay under
 * the sensors' 2 s read timeout, or a jump of the clock would look like a sensor that never answered.
 */
async function pass(ms: number, stepMs = 250): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    sensors.soil.value = soilPct + (Math.floor(clock.now() / 5_000) % 2) * 0.01;
    await clock.advanceAsync(Math.min(stepMs, ms - done), stepMs);
  }
  for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
}

const pump = () => outputs.get('relay-1')!;
const pulsesGiven = () => pump().calls.filter((on) => on).length;
const device = async (deviceId = 'pump-1') => (await http.get(`/api/devices/${GH}`, admin)).body.data.find((d: { deviceId: string }) => d.deviceId === deviceId);
const setProgram = (irrigation: object | null, extra: object = {}) => http.post('/api/devices/pump-1/automation', { autoMode: true, automationRules: { irrigation }, ...extra }, admin);
const activeAlert = async (alertType: string) =>
  ((await http.get(`/api/alerts/active/${GH}`, admin)).body.data as Array<{ _id: string; alertType: string; severity: string; message: string; deviceId: string }>).find((a) => a.alertType === alertType);
const logOf = async () => (await http.get('/api/devices/pump-1/log?limit=50', admin)).body.data as Array<{ newStatus: string; actor: string; reason: string; source: string }>;
const localHm = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

beforeEach(async () => {
  clock = new ManualClock(START);
  soilPct = 20;
  sensors = fakeSensors({ soilPct: 20, levelCm: 50 });
  outputs = fakeOutputs(defaultOutputs);
  await start();
  admin = await registerUser(http, { username: 'grower' });
  // Pulses are short here; the hour's run budget must not be what stops them.
  const limits = { pumpMaxRunSeconds: 600, pumpRunWindowMinutes: 60, minOffSeconds: 0 };
  expect((await http.put(`/api/settings/${GH}/devices`, { deviceSettings: limits }, admin)).status).toBe(200);
  await pass(6_000);
});
afterEach(async () => {
  await gw.dispose();
});

describe('a dry bed', () => {
  it('is watered in pulses with a soak between them until the probe reads the target; water per day counts them', async () => {
    expect((await http.put('/api/devices/pump-1', { flowLitresPerMinute: 3 }, admin)).status).toBe(200);
    expect((await setProgram(PROGRAM)).status).toBe(200);
    await pass(1_000);
    expect(pump().on).toBe(true);
    await pass(20_000);
    expect(pump().on).toBe(false);
    expect((await device()).stateReason.text).toMatch(/soaking 5 min|Irrigation soaking after pulse 1\/4/);
    // The water soaks in: the probe rises during the soak, not during the pulse.
    soilPct = 27;
    await pass(5 * 60_000, 1_000);
    expect(pulsesGiven()).toBe(2);
    await pass(20_000);
    soilPct = 34;
    await pass(5 * 60_000, 1_000);
    expect(pulsesGiven()).toBe(3);
    await pass(20_000);
    soilPct = 41;
    await pass(5 * 60_000, 1_000);
    // Target reached after three pulses: no fourth.
    await pass(30 * 60_000, 1_500);
    expect(pulsesGiven()).toBe(3);
    expect(pump().on).toBe(false);
    const log = await logOf();
    expect(log[0]).toMatchObject({ newStatus: 'OFF', actor: 'irrigation', source: 'rule' });
    expect(log.filter((e) => e.newStatus === 'ON').map((e) => e.reason)).toEqual([
      expect.stringMatching(/^Irrigation pulse 3\/4 \(20 s\): soil 34 % below the target 40 %/),
      expect.stringMatching(/^Irrigation pulse 2\/4 \(20 s\): soil 27 % below the target 40 %/),
      expect.stringMatching(/^Irrigation pulse 1\/4 \(20 s\): soil 20 % below 30 %/),
    ]);
    expect((await device()).stateReason.text).toMatch(/reached the target 40 % in 3 pulses|waits: soil 41 %/);

    const water = (await http.get('/api/devices/pump-1/water?days=2', admin)).body.data;
    expect(water).toHaveLength(2);
    expect(water[1]).toMatchObject({ date: localDate(clock.now()), pulses: 3 });
    // Three 20 s pulses, each ended by its own timer on the injected clock.
    expect(water[1].runSeconds).toBeGreaterThanOrEqual(60);
    expect(water[1].runSeconds).toBeLessThanOrEqual(61.5);
    expect(water[1].litres).toBeCloseTo((water[1].runSeconds / 60) * 3, 2);
    expect(water[0]).toMatchObject({ pulses: 0, runSeconds: 0, litres: 0 });
  });
});

describe('ending a program', () => {
  it('removing the program or auto mode during a pulse stops the pump at once', async () => {
    await setProgram(PROGRAM);
    await pass(5_000);
    expect(pump().on).toBe(true);
    expect((await setProgram(null)).status).toBe(200);
    await pass(500);
    expect(pump().on).toBe(false);
    expect((await logOf())[0]).toMatchObject({ newStatus: 'OFF', actor: 'irrigation', reason: 'Irrigation program ended during a pulse: pump off' });
    await setProgram(PROGRAM);
    await pass(5_000);
    expect(pump().on).toBe(true);
    expect((await http.post('/api/devices/pump-1/automation', { autoMode: false }, admin)).status).toBe(200);
    await pass(500);
    expect(pump().on).toBe(false);
  });
});

describe('no effect', () => {
  it('raises IRRIGATION_NO_EFFECT (HIGH) after the last pulse soaked without a 2-point rise, pauses until resolved, then resumes', async () => {
    expect((await setProgram({ ...PROGRAM, maxPulses: 2 })).status).toBe(200);
    await pass(20_500);
    soilPct = 21;
    await pass(5 * 60_000, 1_000);
    await pass(20_500);
    expect(pulsesGiven()).toBe(2);
    await pass(5 * 60_000, 1_000);
    const alert = await activeAlert('IRRIGATION_NO_EFFECT');
    expect(alert).toMatchObject({ severity: 'HIGH', deviceId: 'pump-1' });
    expect(alert!.message).toMatch(/20 % to 21 %.*paused/);
    // Paused: the soil is still dry, but no pulse for hours.
    await pass(3 * 3_600_000, 1_500);
    expect(pulsesGiven()).toBe(2);
    expect((await device()).stateReason.text).toMatch(/Irrigation paused/);
    expect((await http.put(`/api/alerts/${alert!._id}/resolve`, {}, admin)).status).toBe(200);
    await pass(6_000);
    expect(pulsesGiven()).toBe(3);
  });

  it('keeps the pause across a restart', async () => {
    await setProgram({ ...PROGRAM, maxPulses: 1, soakMinutes: 1 });
    await pass(20_500);
    await pass(70_000, 1_000);
    expect(await activeAlert('IRRIGATION_NO_EFFECT')).toBeDefined();
    const dataDir = gw.dataDir;
    await gw.stop();
    await start(dataDir);
    await pass(30 * 60_000, 1_500);
    expect(pulsesGiven()).toBe(1);
    expect((await device()).stateReason.text).toMatch(/Irrigation paused/);
  });
});

describe('budget and window', () => {
  it('never runs past the day budget: the last pulse is cut to what is left, then it waits until the next day', async () => {
    await setProgram({ ...PROGRAM, maxPulses: 10, soakMinutes: 1, maxRunSecondsPerDay: 50 });
    await pass(20 * 60_000, 500);
    // 20 + 20 + 10 s.
    expect(pulsesGiven()).toBe(3);
    expect((await logOf()).find((e) => e.newStatus === 'ON')!.reason).toMatch(/pulse 3\/10 \(10 s\)/);
    expect((await device()).stateReason.text).toMatch(/daily run budget spent \(50 s today\)/);
    const water = (await http.get('/api/devices/pump-1/water?days=1', admin)).body.data;
    expect(water[0].runSeconds).toBeLessThanOrEqual(51.5);
    expect(water[0].litres).toBeNull();
  });

  it('a restart does not reset the day budget: it is rebuilt from the control log', async () => {
    await setProgram({ ...PROGRAM, soakMinutes: 1, maxRunSecondsPerDay: 20 });
    await pass(3 * 60_000, 500);
    expect(pulsesGiven()).toBe(1);
    const dataDir = gw.dataDir;
    await gw.stop();
    await start(dataDir);
    await pass(10 * 60_000, 1_000);
    expect(pulsesGiven()).toBe(1);
  });

  it('never waters outside its window: dry soil waits for the window to open', async () => {
    const window = { from: localHm(START + 3_600_000), to: localHm(START + 2 * 3_600_000) };
    await setProgram({ ...PROGRAM, window });
    await pass(50 * 60_000, 1_500);
    expect(pulsesGiven()).toBe(0);
    expect((await device()).stateReason.text).toMatch(/outside the watering window/);
    await pass(15 * 60_000, 1_000);
    expect(pulsesGiven()).toBe(1);
  });
});

describe('the tank', () => {
  it('a low tank holds watering back, and so does an unknown one', async () => {
    sensors.water.value = 5;
    await pass(6_000);
    await setProgram(PROGRAM);
    await pass(60_000, 1_000);
    expect(pulsesGiven()).toBe(0);
    expect((await device()).stateReason.text).toMatch(/tank low \(5 cm, minimum 10 cm\)/);
    sensors.water.mode = 'fail';
    sensors.water.value = 50;
    await pass(6 * 60_000, 1_500);
    expect(pulsesGiven()).toBe(0);
    expect((await device()).stateReason.text).toMatch(/tank level unknown/);
    sensors.water.mode = 'ok';
    await pass(10_000, 500);
    expect(pulsesGiven()).toBe(1);
  });
});

describe('a lost probe', () => {
  it('stops moisture watering; without a fallback the pump stays off', async () => {
    await setProgram(PROGRAM);
    await pass(5_000);
    expect(pump().on).toBe(true);
    sensors.soil.mode = 'fail';
    await pass(6 * 60_000, 1_500);
    expect(pump().on).toBe(false);
    const before = pulsesGiven();
    await pass(2 * 3_600_000, 1_500);
    expect(pulsesGiven()).toBe(before);
    expect((await device()).stateReason.text).toMatch(/moisture watering stopped/);
  });

  it('with fallbackEveryHours waters one pulse every N hours, with an alert, until the probe returns', async () => {
    soilPct = 50;
    await pass(6_000);
    await setProgram({ ...PROGRAM, fallbackEveryHours: 2 });
    sensors.soil.mode = 'fail';
    await pass(6 * 60_000, 1_500);
    expect(pulsesGiven()).toBe(1);
    expect(await activeAlert('IRRIGATION_FALLBACK')).toMatchObject({ severity: 'MEDIUM', deviceId: 'pump-1' });
    await pass(60 * 60_000, 1_500);
    expect(pulsesGiven()).toBe(1);
    await pass(60 * 60_000, 1_500);
    expect(pulsesGiven()).toBe(2);
    sensors.soil.mode = 'ok';
    await pass(60_000, 1_000);
    expect(await activeAlert('IRRIGATION_FALLBACK')).toBeUndefined();
  });
});

describe('bad input', () => {
  it.each([
    ['a target below the start', { ...PROGRAM, targetPct: 25 }, 'automationRules.irrigation.targetPct'],
    ['a pulse longer than the daily budget', { ...PROGRAM, pulseSeconds: 700 }, 'automationRules.irrigation.pulseSeconds'],
    ['a soak of 0 with more than one pulse', { ...PROGRAM, soakMinutes: 0 }, 'automationRules.irrigation.soakMinutes'],
    ['a negative pulse', { ...PROGRAM, pulseSeconds: -1 }, 'pulseSeconds'],
    ['an unknown field', { ...PROGRAM, pulse: 3 }, 'pulse'],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_name, irrigation, field) => {
    const before = await device();
    const res = await setProgram(irrigation);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    expect(await device()).toEqual(before);
  });

  it('refuses a program on a device that is not a pump', async () => {
    const res = await http.post('/api/devices/fan-1/automation', { automationRules: { irrigation: PROGRAM } }, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/automationRules\.irrigation applies only to a WATER_PUMP/);
  });

  it.each([0, -2])('refuses a flow of %s L/min with a 400 naming flowLitresPerMinute', async (flow) => {
    const res = await http.put('/api/devices/pump-1', { flowLitresPerMinute: flow }, admin);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('flowLitresPerMinute');
    expect((await device()).flowLitresPerMinute).toBeNull();
  });

  it('refuses water for an unknown device (404) and a bad day count (400)', async () => {
    expect((await http.get('/api/devices/nope/water?days=3', admin)).status).toBe(404);
    const bad = await http.get('/api/devices/pump-1/water?days=0', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/days/);
  });
});

function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
