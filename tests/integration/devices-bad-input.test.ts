import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Value from 'typebox/value';
import { ConfigSchema } from '../../server/config/schema.ts';
import { EMPTY_RULES, type AutomationRules } from '../../server/contract/device.ts';
import { openDatabase } from '../../server/db/open.ts';
import { checkAutomationRules } from '../../server/devices/rules/check-rules.ts';
import { devices as devicesTable } from '../../server/db/schema.ts';
import { fakeHardware, fakeOutputs } from '../support/fake-outputs.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient, type HttpResult } from '../support/http.ts';

/*
 * Bad input on devices and their automation over real HTTP and a real SQLite file: a climate target the
 * machine cannot act on, rules that contradict each other, names and ids already in use (one at a time
 * and all at once), and a database written before these were checked. Each refusal is a 4xx whose
 * message and `errors` name the field, and the devices read back unchanged.
 */
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const GH = 'greenhouse-001';

let gw: TestGateway;
let http: HttpClient;
let admin: string;

beforeAll(async () => {
  gw = await startTestGateway({}, { hardware: fakeHardware(fakeOutputs(defaultOutputs)) });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
});
afterAll(async () => {
  await gw?.dispose();
});

const list = async () => (await http.get(`/api/devices/${GH}`, admin)).body.data as any[];
const find = async (deviceId: string) => (await list()).find((d) => d.deviceId === deviceId);
const automation = (deviceId: string, automationRules: Partial<AutomationRules> | Record<string, unknown>) =>
  http.post(`/api/devices/${deviceId}/automation`, { automationRules }, admin);

/** A refused call: its status, a message and an `errors` entry naming the field, and every device unchanged. */
async function expectRefused(call: () => Promise<HttpResult>, status: number, field: string, message?: RegExp) {
  const before = await list();
  const result = await call();
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.success).toBe(false);
  expect(result.body.message).toContain(field);
  if (message) expect(result.body.message).toMatch(message);
  expect(result.body.errors?.map((e: { field: string }) => e.field)).toContain(field);
  expect(await list()).toEqual(before);
  return result;
}

describe('automationRules.follow: only what the machine can do to the air', () => {
  it.each([
    ['heater-1', 'vent'],
    ['heater-1', 'cool'],
    ['heater-1', 'dehumidify'],
    ['cooling-1', 'heat'],
    ['cooling-1', 'dehumidify'],
    ['light-1', 'cool'],
    ['light-1', 'heat'],
    ['window-1', 'heat'],
    ['window-1', 'cool'],
    ['window-1', 'light'],
    ['pump-1', 'vent'],
    ['pump-1', 'heat'],
    ['fan-1', 'heat'],
    ['fan-1', 'light'],
  ])('%s may not follow %s: 400 naming automationRules.follow', async (deviceId, follow) => {
    await expectRefused(() => automation(deviceId, { follow: follow as AutomationRules['follow'] }), 400, 'automationRules.follow', new RegExp(`'${follow}' does not fit`));
  });

  it('says what the device may follow', async () => {
    const heater = await automation('heater-1', { follow: 'vent' });
    expect(heater.body.message).toMatch(/a HEATER may follow only 'heat'/);
    const pump = await automation('pump-1', { follow: 'vent' });
    expect(pump.body.message).toMatch(/a WATER_PUMP follows no climate target .*automationRules\.irrigation/);
  });

  it.each([
    ['heater-1', 'heat'],
    ['fan-1', 'vent'],
    ['fan-1', 'cool'],
    ['fan-1', 'dehumidify'],
    ['cooling-1', 'cool'],
    ['window-1', 'vent'],
    ['window-1', 'dehumidify'],
    ['light-1', 'light'],
  ])('%s may follow %s', async (deviceId, follow) => {
    const set = await automation(deviceId, { follow: follow as AutomationRules['follow'] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await find(deviceId)).automationRules.follow).toBe(follow);
    expect((await automation(deviceId, { follow: null })).status).toBe(200);
  });

  it('a cooling system follows vent as the ventilation’s stage 2', async () => {
    expect((await automation('fan-1', { follow: 'vent' })).status).toBe(200);
    const stage2 = await automation('cooling-1', { follow: 'vent', stage: 2 });
    expect(stage2.status, JSON.stringify(stage2.body)).toBe(200);
    expect((await automation('cooling-1', { follow: null, stage: 1 })).status).toBe(200);
    expect((await automation('fan-1', { follow: null })).status).toBe(200);
  });

  it('heatingCycleMinutes belongs to a heater: 400 on a fan, 200 on the heater', async () => {
    await expectRefused(() => automation('fan-1', { heatingCycleMinutes: 10 }), 400, 'automationRules.heatingCycleMinutes', /only to a HEATER/);
    await expectRefused(() => automation('window-1', { follow: 'vent', heatingCycleMinutes: 10 }), 400, 'automationRules.heatingCycleMinutes');
    const heater = await automation('heater-1', { follow: 'heat', heatingCycleMinutes: 10 });
    expect(heater.status).toBe(200);
    expect((await find('heater-1')).automationRules).toMatchObject({ follow: 'heat', heatingCycleMinutes: 10 });
    expect((await automation('heater-1', { follow: null, heatingCycleMinutes: null })).status).toBe(200);
  });

  it('the rule preview refuses the same, before any replay', async () => {
    const preview = await http.post('/api/devices/heater-1/automation/preview', { automationRules: { follow: 'vent' }, hours: 1 }, admin);
    expect(preview.status).toBe(400);
    expect(preview.body.errors.map((e: { field: string }) => e.field)).toEqual(['automationRules.follow']);
  });

  it('a device’s type cannot be changed afterwards, so a stored follow always fits it', async () => {
    expect((await automation('heater-1', { follow: 'heat' })).status).toBe(200);
    await expectRefused(() => http.put('/api/devices/heater-1', { deviceType: 'FAN' }, admin), 400, 'deviceType');
    expect((await automation('heater-1', { follow: null })).status).toBe(200);
  });
});

describe('threshold rules that drive a machine against its effect', () => {
  it.each([
    ['heater-1', 'temperatureHigh', /does not fit a HEATER: a heater warms.*use automationRules\.temperatureLow/],
    ['cooling-1', 'temperatureLow', /does not fit a COOLING_SYSTEM: a cooling system cools.*use automationRules\.temperatureHigh/],
  ])('%s may not take %s: 400 naming it', async (deviceId, kind, message) => {
    await expectRefused(() => automation(deviceId, { [kind]: 20 }), 400, `automationRules.${kind}`, message);
    // Not beside its right rule either, nor in a preview.
    await expectRefused(() => automation(deviceId, { temperatureLow: 10, temperatureHigh: 30 }), 400, `automationRules.${kind}`);
    const preview = await http.post(`/api/devices/${deviceId}/automation/preview`, { automationRules: { [kind]: 20 }, hours: 1 }, admin);
    expect(preview.status).toBe(400);
    expect(preview.body.errors.map((e: { field: string }) => e.field)).toEqual([`automationRules.${kind}`]);
  });

  it.each([
    ['heater-1', { temperatureLow: 12 }],
    // Heating dries the air; an evaporative cooler wets it.
    ['heater-1', { humidityHigh: 85 }],
    ['cooling-1', { temperatureHigh: 30 }],
    ['cooling-1', { humidityLow: 40 }],
  ] as const)('%s takes %j', async (deviceId, rules) => {
    const set = await automation(deviceId, rules);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await find(deviceId)).automationRules).toMatchObject(rules);
    const cleared = Object.fromEntries(Object.keys(rules).map((key) => [key, null]));
    expect((await automation(deviceId, cleared)).status).toBe(200);
  });
});

describe('high and low rules of one quantity', () => {
  it.each([
    ['an always-on temperature pair', { temperatureHigh: 20, temperatureLow: 30 }, 'automationRules.temperatureLow', /automationRules\.temperatureLow \(30\) must be below automationRules\.temperatureHigh \(20\)/],
    ['equal temperatures', { temperatureHigh: 25, temperatureLow: 25 }, 'automationRules.temperatureLow', /\(25\) must be below/],
    ['an always-on humidity pair', { humidityHigh: 20, humidityLow: 80 }, 'automationRules.humidityLow', /automationRules\.humidityLow \(80\) must be below automationRules\.humidityHigh \(20\)/],
    [
      'a low band released past the high rule',
      { temperatureLow: 10, temperatureHigh: 28, offAt: { temperatureLow: 29 } },
      'automationRules.offAt.temperatureLow',
      /automationRules\.offAt\.temperatureLow \(29\) must be below automationRules\.temperatureHigh \(28\)/,
    ],
    [
      'a high band released past the low rule',
      { temperatureLow: 10, temperatureHigh: 28, offAt: { temperatureHigh: 9 } },
      'automationRules.offAt.temperatureHigh',
      /automationRules\.offAt\.temperatureHigh \(9\) must be above automationRules\.temperatureLow \(10\)/,
    ],
  ])('refuses %s', async (_name, rules, field, message) => {
    await expectRefused(() => automation('fan-1', rules), 400, field, message);
  });

  it('checks a partial change against the stored other half, naming the field sent', async () => {
    expect((await automation('fan-1', { temperatureHigh: 28 })).status).toBe(200);
    await expectRefused(() => automation('fan-1', { temperatureLow: 30 }), 400, 'automationRules.temperatureLow');
    expect((await automation('fan-1', { temperatureLow: 10 })).status).toBe(200);
    await expectRefused(() => automation('fan-1', { temperatureHigh: 8 }), 400, 'automationRules.temperatureHigh', /temperatureLow \(10\) must be below automationRules\.temperatureHigh \(8\)/);
    await expectRefused(() => automation('fan-1', { offAt: { temperatureLow: 28 } }), 400, 'automationRules.offAt.temperatureLow');
    // A band that stays inside is fine; clearing one rule makes the other free.
    const band = await automation('fan-1', { offAt: { temperatureLow: 12, temperatureHigh: 26 } });
    expect(band.status, JSON.stringify(band.body)).toBe(200);
    expect((await automation('fan-1', { temperatureLow: null })).status).toBe(200);
    expect((await automation('fan-1', { offAt: { temperatureHigh: 9 } })).status).toBe(200);
    expect((await automation('fan-1', { temperatureHigh: null, offAt: { temperatureLow: null, temperatureHigh: null } })).status).toBe(200);
  });
});

describe('windows that open', () => {
  it('a schedule that ends where it starts is 400 naming automationRules.schedule.to', async () => {
    await expectRefused(() => automation('light-1', { schedule: { from: '06:00', to: '06:00' } }), 400, 'automationRules.schedule.to', /never open/);
  });

  it('sunrise+0 is sunrise (checked without a site, which the route asks for first)', () => {
    const schedule = { from: 'sunrise', to: 'sunrise+0' };
    expect(() => checkAutomationRules({ ...EMPTY_RULES, schedule }, { schedule }, 'LED_LIGHT')).toThrow(/automationRules\.schedule\.to .* never open/);
    const opens = { from: 'sunrise', to: 'sunrise+30' };
    expect(() => checkAutomationRules({ ...EMPTY_RULES, schedule: opens }, { schedule: opens }, 'LED_LIGHT')).not.toThrow();
  });

  it('a pump’s irrigation window that ends where it starts is refused the same way; one that opens is kept', async () => {
    const program = { startBelowPct: 30, targetPct: 45, pulseSeconds: 20, soakMinutes: 10, maxPulses: 4, maxRunSecondsPerDay: 600 };
    await expectRefused(() => automation('pump-1', { irrigation: { ...program, window: { from: '07:00', to: '07:00' } } }), 400, 'automationRules.irrigation.window.to');
    const kept = await automation('pump-1', { irrigation: { ...program, window: { from: '07:00', to: '19:00' } } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect((await find('pump-1')).automationRules.irrigation.window).toEqual({ from: '07:00', to: '19:00' });
  });
});

describe('a sun schedule stored before the site was cleared', () => {
  it('keeps the device’s automation editable and the quick action working; a new sun schedule is still refused', async () => {
    const site = (value: object | null) => http.put(`/api/settings/${GH}/system`, { systemSettings: { site: value } }, admin);
    expect((await site({ latitude: 52.1, longitude: 5.1 })).status).toBe(200);
    const sunny = await automation('light-1', { schedule: { from: 'sunrise', to: 'sunset' } });
    expect(sunny.status, JSON.stringify(sunny.body)).toBe(200);
    expect((await site(null)).status).toBe(200);
    // Auto mode off and on again, another rule beside the stored schedule, the preview: all still answer.
    expect((await http.post('/api/devices/light-1/automation', { autoMode: false }, admin)).status).toBe(200);
    expect((await automation('light-1', { lightLevelLow: 2000 })).status).toBe(200);
    expect((await http.post('/api/devices/light-1/automation/preview', { automationRules: {}, hours: 1 }, admin)).status).toBe(200);
    const quick = await http.post(`/api/devices/actions/enable-auto/${GH}`, undefined, admin);
    expect(quick.status, JSON.stringify(quick.body)).toBe(200);
    expect((await find('light-1')).autoMode).toBe(true);
    await expectRefused(() => automation('light-1', { schedule: { from: 'sunset', to: '23:00' } }), 400, 'automationRules.schedule', /site/);
    // Clock times replace it.
    expect((await automation('light-1', { schedule: { from: '06:00', to: '22:00' } })).status).toBe(200);
  });
});

describe('names and ids are unique', () => {
  beforeAll(async () => {
    expect((await http.put('/api/devices/fan-1', { deviceName: 'Fan one' }, admin)).status).toBe(200);
  });

  it.each([
    ['the same name', 'Fan one'],
    ['the name in other case and spacing', '  fan   ONE '],
  ])('POST with %s is 409 naming deviceName', async (_name, deviceName) => {
    await expectRefused(() => http.post('/api/devices', { deviceName, deviceId: 'dupname-1', deviceType: 'FAN' }, admin), 409, 'deviceName', /fan-1/);
  });

  it('POST with an id differing only in case is 409 naming deviceId', async () => {
    await expectRefused(() => http.post('/api/devices', { deviceName: 'Other fan', deviceId: 'FAN-1', deviceType: 'FAN' }, admin), 409, 'deviceId', /'fan-1'/);
  });

  it('a rename onto another device’s name is 409; onto its own name in other case, 200', async () => {
    await expectRefused(() => http.put('/api/devices/fan-1', { deviceName: 'Heater' }, admin), 409, 'deviceName', /heater-1/);
    await expectRefused(() => http.put('/api/devices/fan-1', { deviceName: 'heater ' }, admin), 409, 'deviceName');
    const own = await http.put('/api/devices/fan-1', { deviceName: 'FAN ONE' }, admin);
    expect(own.status).toBe(200);
    expect(own.body.data.deviceName).toBe('FAN ONE');
    expect((await http.put('/api/devices/fan-1', { deviceName: 'Fan one' }, admin)).status).toBe(200);
  });

  it('of many simultaneous adds with one name, or one id in several cases, one is 201 and the rest 409', async () => {
    const sameName = await Promise.all(
      Array.from({ length: 6 }, (_, i) => http.post('/api/devices', { deviceName: 'Race fan', deviceId: `race-${i}`, deviceType: 'FAN' }, admin)),
    );
    expect(sameName.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(sameName.filter((r) => r.status === 409).every((r) => r.body.errors[0].field === 'deviceName')).toBe(true);
    const sameId = await Promise.all(
      ['race-x', 'RACE-X', 'Race-X', 'race-X'].map((deviceId, i) => http.post('/api/devices', { deviceName: `Racer ${i}`, deviceId, deviceType: 'FAN' }, admin)),
    );
    expect(sameId.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const all = await list();
    expect(all.filter((d) => d.deviceName === 'Race fan')).toHaveLength(1);
    expect(all.filter((d) => d.deviceId.toLowerCase() === 'race-x')).toHaveLength(1);
  });

  it('of two simultaneous renames onto one name, one is 200 and the other 409', async () => {
    const renames = await Promise.all(['light-1', 'cooling-1'].map((deviceId) => http.put(`/api/devices/${deviceId}`, { deviceName: 'Corner unit' }, admin)));
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await list()).filter((d) => d.deviceName === 'Corner unit')).toHaveLength(1);
  });
});

describe('a database written before these checks', () => {
  it('opens: a follow or a rule the device cannot do is cleared, duplicates are kept, a configured device gets a free name', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-old-devices-'));
    const opened = openDatabase(dataDir);
    const at = new Date(Date.UTC(2026, 0, 1));
    const row = (deviceId: string, name: string, type: string, rules: Partial<AutomationRules> = {}) => ({
      deviceId, greenhouseId: GH, name, type, status: 'OFF', automationRules: { ...EMPTY_RULES, ...rules }, createdAt: at, updatedAt: at,
    });
    opened.db.insert(devicesTable).values([
      // A configured device that followed vent: it would heat a hot house.
      // ...and had a temperatureHigh rule, which would heat a hot house too.
      row('heater-1', 'Heater', 'HEATER', { follow: 'vent', stage: 1, heatingCycleMinutes: 10, temperatureHigh: 28, temperatureLow: 12 }),
      // A fan with a heating cycle, and a pair of rules that keeps it always on.
      row('fan-1', 'Ventilation Fan', 'FAN', { follow: 'vent', heatingCycleMinutes: 10, temperatureHigh: 20, temperatureLow: 30 }),
      // Added from the dashboard under the name the wiring config gives cooling-1, which is not stored yet.
      row('my-cooler', 'evaporative cooler', 'COOLING_SYSTEM', { temperatureLow: 12, temperatureHigh: 30 }),
      // Two devices that differ only in the case of their ids and share a name.
      row('spare-a', 'Spare', 'FAN'),
      row('SPARE-A', 'spare', 'FAN'),
    ]).run();
    opened.close();
    const older = await startTestGateway({ dataDir }, { hardware: fakeHardware(fakeOutputs(defaultOutputs)) });
    try {
      const client = httpClient(older.url);
      const token = await registerUser(client, { username: 'grower' });
      const all = (await client.get(`/api/devices/${GH}`, token)).body.data as any[];
      const of = (deviceId: string) => all.find((d) => d.deviceId === deviceId);
      expect(of('heater-1').automationRules).toMatchObject({ follow: null, stage: 1, heatingCycleMinutes: 10, temperatureHigh: null, temperatureLow: 12 });
      expect(of('my-cooler').automationRules).toMatchObject({ temperatureLow: null, temperatureHigh: 30 });
      expect(of('fan-1').automationRules).toMatchObject({ follow: 'vent', heatingCycleMinutes: null });
      expect(of('cooling-1').deviceName).toBe('Evaporative Cooler (cooling-1)');
      expect(of('my-cooler').deviceName).toBe('evaporative cooler');
      expect([of('spare-a').deviceName, of('SPARE-A').deviceName]).toEqual(['Spare', 'spare']);

      // Stored contradictions do not block a change that does not touch them...
      const auto = await client.post('/api/devices/fan-1/automation', { autoMode: false, sensorLossAction: 'off' }, token);
      expect(auto.status, JSON.stringify(auto.body)).toBe(200);
      expect((await client.put('/api/devices/spare-a', { location: 'Shed' }, token)).status).toBe(200);
      // ...but a change to one of them is checked against the other.
      const pair = await client.post('/api/devices/fan-1/automation', { automationRules: { temperatureHigh: 21 } }, token);
      expect(pair.status).toBe(400);
      expect(pair.body.errors[0].field).toBe('automationRules.temperatureHigh');
      // The duplicate is resolved by renaming one of them.
      expect((await client.put('/api/devices/SPARE-A', { deviceName: 'Spare two' }, token)).status).toBe(200);
    } finally {
      await older.dispose();
    }
  });
});
