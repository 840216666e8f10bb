import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { startSmtpReceiver } from '../support/smtp.ts';

/*
 * A night a grower leaves the greenhouse to the gateway: 8 °C outside the heater's band, the heater in
 * auto mode with frost duty 30 %, and the air sensor dies at 02:00. Real gateway, real SQLite, real
 * SMTP; fake sensors and relays; a ManualClock drives the sampling loop tick by tick.
 */
const INTERVAL_S = 30;
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;

describe('the air sensor dies at 02:00', () => {
  const clock = new ManualClock(Date.parse('2026-01-15T01:50:00Z'));
  const sensors = fakeSensors({ climate: { temperatureC: 8, humidityPct: 85 } });
  const outputs: Map<string, FakeOutput> = fakeOutputs(defaultOutputs);
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  /** The heater relay's state after each tick, with the tick's time. */
  const relay: Array<{ atMs: number; on: boolean }> = [];
  let tick = 0;

  async function ticksUntil(iso: string): Promise<void> {
    while (clock.now() < Date.parse(iso)) {
      // A live sensor never repeats itself exactly (and the stuck detector would say so).
      sensors.climate.value = { temperatureC: 8 + (tick++ % 3) * 0.1, humidityPct: 85 };
      await clock.advanceAsync(INTERVAL_S * 1000, 1000);
      for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
      relay.push({ atMs: clock.now(), on: outputs.get('relay-4')!.on });
    }
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    gw = await startTestGateway(
      { smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'greenhouse@farm.test' } },
      { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } },
    );
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
    await http.put('/api/auth/profile', { preferences: { emailNotifications: true } }, admin);
    await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, admin);
    const automation = { automationRules: { temperatureLow: 12 }, autoMode: true, sensorLossAction: 'duty', sensorLossDutyPct: 30 };
    expect((await http.post('/api/devices/heater-1/automation', automation, admin)).status).toBe(200);
    await ticksUntil('2026-01-15T02:00:00Z');
  });
  afterAll(async () => {
    // A failing read waits for its retry on the ManualClock: let the sensor answer so the sampler can stop.
    sensors.climate.mode = 'ok';
    await clock.advanceAsync(INTERVAL_S * 1000, 1000);
    await gw?.dispose();
    await smtp?.close();
  });

  it('the heater keeps cycling on its duty: on for 3 min of every 10, as safety, saying why', async () => {
    expect(outputs.get('relay-4')!.on).toBe(true);
    sensors.climate.mode = 'fail';
    await ticksUntil('2026-01-15T03:00:00Z');

    // From 02:10 (the first full cycle after the fault is declared) each cycle is 3 min on, 7 off.
    const cycles = relay.filter((r) => r.atMs > Date.parse('2026-01-15T02:10:00Z'));
    const onShare = cycles.filter((r) => r.on).length / cycles.length;
    expect(onShare).toBeGreaterThan(0.25);
    expect(onShare).toBeLessThan(0.35);
    const log = (await http.get('/api/devices/heater-1/log?limit=100&source=safety', admin)).body.data as Array<{ newStatus: string; actor: string; reason: string; timestamp: string }>;
    const switchOns = log.filter((e) => e.newStatus === 'ON');
    expect(switchOns.length).toBeGreaterThanOrEqual(5);
    expect(switchOns.every((e) => e.actor === 'SENSOR_LOSS' && /duty 30 %/.test(e.reason))).toBe(true);

    const heater = (await http.get('/api/devices/default', admin)).body.data.find((d: { deviceId: string }) => d.deviceId === 'heater-1');
    expect(heater.stateReason).toMatchObject({ source: 'safety', text: expect.stringMatching(/^(On|Off): sensor loss \(air temperature .*\): frost duty 30 %/) });
    // A person may not switch it on blind: the card disables Turn On and says why.
    expect(heater.locks).toContainEqual({ kind: 'no_reading', text: 'Air temperature unknown (sensor fault): a heater never runs blind' });
  });

  it('the SENSOR_FAULT is CRITICAL, names the heater that depends on it, and is mailed', async () => {
    const active = (await http.get('/api/alerts/active/default', admin)).body.data as Array<{ alertType: string; severity: string; message: string }>;
    const fault = active.find((a) => a.alertType === 'SENSOR_FAULT');
    expect(fault).toMatchObject({ severity: 'CRITICAL', message: expect.stringMatching(/automation depends on it: Heater$/) });
    await vi.waitFor(() => expect(smtp.received.some((m) => /CRITICAL: SENSOR[ _]FAULT/.test(m.raw))).toBe(true), { timeout: 10_000 });
    expect(smtp.received.find((m) => /SENSOR[ _]FAULT/.test(m.raw))!.to).toEqual(['grower@farm.test']);
  });

  it('a heater switched on by hand is refused without a reading: 409 naming the reading', async () => {
    await http.post('/api/devices/heater-1/automation', { autoMode: false }, admin);
    await http.post('/api/devices/heater-1/control', { action: 'off' }, admin);
    const refused = await http.post('/api/devices/heater-1/control', { action: 'on' }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, lock: { kind: 'no_reading' }, message: 'Cannot turn on Heater: Air temperature unknown (sensor fault): a heater never runs blind' });
  });
});
