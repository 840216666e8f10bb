import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { getTimes } from 'suncalc';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * A day and a night under a climate program: real gateway, real SQLite and HTTP, fake sensors and
 * outputs, a ManualClock ticking the sampler. The night holds 16/20 °C, the day from sunrise+30 holds
 * 22/26 °C after a one-hour ramp. The heater follows `heat`, the roof window `vent` in proportion, the
 * fan `vent` stage 1 and the cooler `vent` stage 2 (3 °C further).
 */
const INTERVAL_S = 30;
const SITE = { latitude: 52.1, longitude: 5.1 };
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const local = (h: number, m = 0) => new Date(2026, 5, 10, h, m).getTime();
const sunriseMs = getTimes(new Date(2026, 5, 10, 12), SITE.latitude, SITE.longitude).sunrise!.getTime();

const PROGRAM = {
  periods: [
    { start: 'sunrise+30', heatBelowC: 22, ventAboveC: 26, humidityAbovePct: 85, rampMinutes: 60 },
    { start: '20:00', heatBelowC: 16, ventAboveC: 20, rampMinutes: 60 },
  ],
};

describe('a day and a night under a climate program', () => {
  const clock = new ManualClock(local(1));
  const sensors = fakeSensors({ climate: { temperatureC: 15, humidityPct: 70 } });
  const outputs: Map<string, FakeOutput> = fakeOutputs(defaultOutputs);
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let air = 15;
  let tick = 0;

  async function ticksUntil(ms: number): Promise<void> {
    while (clock.now() < ms) {
      // A live sensor never repeats itself exactly (the stuck detector would say so).
      sensors.climate.value = { temperatureC: air + (tick++ % 2) * 0.01, humidityPct: 70 };
      await clock.advanceAsync(INTERVAL_S * 1000, 1000);
      for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const device = async (deviceId: string) => (await http.get('/api/devices/default', admin)).body.data.find((d: { deviceId: string }) => d.deviceId === deviceId);
  const now = async () => (await http.get('/api/climate/default/now', admin)).body.data;

  beforeAll(async () => {
    gw = await startTestGateway({ site: SITE }, { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
    await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, admin);
    // The heater may not be on together with the cooler; keep the minimum times short for a day in minutes.
    await http.put('/api/settings/default/devices', { deviceSettings: { minOnSeconds: 30, minOffSeconds: 30 } }, admin);
  });
  afterAll(async () => {
    await gw?.dispose();
  });

  it('has no program at first: GET answers null and now says devices follow their own rules', async () => {
    expect((await http.get('/api/climate/default', admin)).body.data).toBeNull();
    expect(await now()).toMatchObject({ period: null, heatBelowC: null, text: expect.stringMatching(/no climate program/) });
  });

  it.each([
    ['periods out of order', { periods: [{ ...PROGRAM.periods[1] }, { ...PROGRAM.periods[0] }] }, 'periods.1.start'],
    ['a heat target above the vent target', { periods: [{ ...PROGRAM.periods[0], heatBelowC: 27 }] }, 'periods.0.heatBelowC'],
    ['a ramp longer than its period', { periods: [{ start: '06:00', heatBelowC: 16, ventAboveC: 20, rampMinutes: 90 }, { start: '07:00', heatBelowC: 16, ventAboveC: 20, rampMinutes: 0 }] }, 'periods.0.rampMinutes'],
    ['a bad start', { periods: [{ ...PROGRAM.periods[0], start: 'noon' }] }, 'periods.0.start'],
    ['an unknown key', { periods: PROGRAM.periods, nightMode: true }, 'nightMode'],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_name, body, field) => {
    const res = await http.put('/api/climate/default', body, admin);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    expect((await http.get('/api/climate/default', admin)).body.data).toBeNull();
  });

  it('stores the program; a viewer may read it but not change it', async () => {
    const res = await http.put('/api/climate/default', PROGRAM, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ periods: PROGRAM.periods, windowSafePosition: 'closed' });
    const viewer = await registerUser(http, { username: 'viewer1', email: 'v@farm.test' });
    expect((await http.put('/api/climate/default', PROGRAM, viewer)).status).toBe(403);
  });

  it('refuses a stage 2 without a stage 1 (400 naming automationRules.stage), then takes the equipment', async () => {
    const lonely = await http.post('/api/devices/cooling-1/automation', { automationRules: { follow: 'vent', stage: 2, stage2OffsetC: 3 }, autoMode: true }, admin);
    expect(lonely.status).toBe(400);
    expect(JSON.stringify(lonely.body)).toContain('automationRules.stage');
    expect((await device('cooling-1')).automationRules.follow).toBeUndefined();
    for (const [id, rules] of [
      ['heater-1', { follow: 'heat' }],
      ['window-1', { follow: 'vent', proportionalBandC: 4 }],
      ['fan-1', { follow: 'vent' }],
      ['cooling-1', { follow: 'vent', stage: 2, stage2OffsetC: 3 }],
    ] as const) {
      expect((await http.post(`/api/devices/${id}/automation`, { automationRules: rules, autoMode: true }, admin)).status).toBe(200);
    }
  });

  it('at night (15 °C under 16) the heater heats and the window stays closed', async () => {
    await ticksUntil(local(2));
    expect(await now()).toMatchObject({ period: 1, heatBelowC: 16, ventAboveC: 20, ramping: false, clockSynchronised: true });
    expect(outputs.get('relay-4')!.on).toBe(true);
    expect((await device('window-1'))).toMatchObject({ status: 'CLOSED', openPct: 0 });
    const log = (await http.get('/api/devices/heater-1/log?limit=5&source=rule', admin)).body.data;
    expect(log[0]).toMatchObject({ actor: 'climate', newStatus: 'ON', reason: expect.stringMatching(/heat below 16 °C.*period 2 \(20:00\)/) });
    air = 17;
    await ticksUntil(local(2, 10));
    expect(outputs.get('relay-4')!.on).toBe(false);
  });

  it('from sunrise+30 the targets ramp to the day: the heater joins again as heat-below climbs past 17 °C', async () => {
    await ticksUntil(sunriseMs + 30 * 60_000 + 60_000);
    expect(await now()).toMatchObject({ period: 0, ramping: true, nextChangeAt: new Date(sunriseMs + 90 * 60_000).toISOString() });
    expect(outputs.get('relay-4')!.on).toBe(false);
    // Halfway (19 °C) the air at 17 °C is under it.
    await ticksUntil(sunriseMs + 60 * 60_000 + 60_000);
    expect((await now()).heatBelowC).toBeGreaterThan(19);
    expect(outputs.get('relay-4')!.on).toBe(true);
    await ticksUntil(sunriseMs + 90 * 60_000 + 60_000);
    expect(await now()).toMatchObject({ heatBelowC: 22, ventAboveC: 26, ramping: false });
  });

  it('at noon the window opens in proportion, the fan joins above 26 °C and the cooler (stage 2) only above 29 °C', async () => {
    air = 27;
    await ticksUntil(local(12));
    expect(outputs.get('relay-4')!.on).toBe(false);
    expect(await device('window-1')).toMatchObject({ status: 'OPEN', openPct: 25 });
    expect(outputs.get('relay-2')!.on).toBe(true);
    expect(outputs.get('relay-5')!.on).toBe(false);
    air = 28;
    await ticksUntil(local(12, 10));
    expect(await device('window-1')).toMatchObject({ openPct: 50 });
    expect(outputs.get('relay-5')!.on).toBe(false);
    air = 29.5;
    await ticksUntil(local(12, 20));
    expect(await device('window-1')).toMatchObject({ openPct: 90 });
    expect(outputs.get('relay-5')!.on).toBe(true);
    const log = (await http.get('/api/devices/window-1/log?limit=3&source=rule', admin)).body.data;
    expect(log[0]).toMatchObject({ actor: 'climate', reason: expect.stringMatching(/90 % open/) });
  });

  it('a reading wobbling by a tenth of a degree does not move the window', async () => {
    const before = (await http.get('/api/devices/window-1/log?limit=100', admin)).body.data.length;
    for (let i = 0; i < 10; i++) {
      air = 29.5 + (i % 2) * 0.1;
      await ticksUntil(clock.now() + INTERVAL_S * 1000);
    }
    expect((await http.get('/api/devices/window-1/log?limit=100', admin)).body.data.length).toBe(before);
  });

  it('from 20:00 the night ramps in and the window closes as the vent target leaves the air below', async () => {
    air = 21;
    await ticksUntil(local(22));
    expect(await now()).toMatchObject({ period: 1, heatBelowC: 16, ventAboveC: 20 });
    expect(await device('window-1')).toMatchObject({ status: 'OPEN', openPct: 25 });
    air = 19;
    await ticksUntil(local(22, 10));
    expect(await device('window-1')).toMatchObject({ status: 'CLOSED', openPct: 0 });
    expect(outputs.get('relay-2')!.on).toBe(false);
  });

  it('the curve starts where asked and shows both targets', async () => {
    const res = await http.get(`/api/climate/default/curve?hours=24&from=${new Date(local(0)).toISOString()}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(289);
    expect(res.body.data.find((p: { at: string }) => p.at === new Date(local(12)).toISOString())).toMatchObject({ heatBelowC: 22, ventAboveC: 26 });
    expect((await http.get('/api/climate/default/curve?hours=500', admin)).status).toBe(400);
  });
});
