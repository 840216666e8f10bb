import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { vpdKpa, dewPointC } from '../../server/sensors/climate-metrics.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { hardwareWith, fakeSensors } from '../support/fake-sensors.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * Over HTTP against the real gateway and the simulator at a ManualClock: the sensor-loss
 * fail-safe, the heater cut-off, schedules, VPD and dew point, the light integral, the rule preview and
 * the simulator API, with their bad inputs.
 */
const INTERVAL_S = 5;

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let viewer: string;
let clock: ManualClock;

async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    // 1 s steps: the reads (and their 2 s timeouts) settle inside a step, as they would in real time.
    await clock.advanceAsync(INTERVAL_S * 1000, 1000);
    for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
  }
}

const device = async (deviceId: string) => (await http.get('/api/devices/default', admin)).body.data.find((d: any) => d.deviceId === deviceId);
const log = async (deviceId: string) => (await http.get(`/api/devices/${deviceId}/log?limit=5`, admin)).body.data;
const active = async () => (await http.get('/api/alerts/active/default', admin)).body.data as Array<{ alertType: string; deviceId: string; message: string }>;

beforeAll(async () => {
  clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
  gw = await startTestGateway({ simulator: { seed: 5, timeScale: 1 } }, { clock });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
  viewer = await registerUser(http, { username: 'onlooker', role: 'viewer' }, admin);
  await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, admin);
  await http.put('/api/settings/default/devices', { deviceSettings: { minOnSeconds: 0, minOffSeconds: 0 } }, admin);
  await ticks(2);
});
afterAll(async () => {
  await gw?.dispose();
});

describe('automation settings on the device', () => {
  it('sensorLossAction is off by default, set with the automation call and returned on the device', async () => {
    expect((await device('fan-1')).sensorLossAction).toBe('off');
    const res = await http.post('/api/devices/fan-1/automation', { sensorLossAction: 'hold', automationRules: { schedule: { from: '22:00', to: '06:00' } } }, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sensorLossAction: 'hold', automationRules: { schedule: { from: '22:00', to: '06:00' } } });
    expect((await device('fan-1')).sensorLossAction).toBe('hold');
    await http.post('/api/devices/fan-1/automation', { sensorLossAction: 'off', automationRules: { schedule: null } }, admin);
  });

  it.each([
    ['an unknown loss action', { sensorLossAction: 'panic' }, /sensorLossAction/],
    ['a bad time', { automationRules: { schedule: { from: '25:00', to: '06:00' } } }, /automationRules\.schedule\.from/],
    ['a missing end', { automationRules: { schedule: { from: '06:00' } } }, /automationRules\.schedule/],
    ['sunrise without a site', { automationRules: { schedule: { from: 'sunrise', to: '20:00' } } }, /automationRules\.schedule.*site\.latitude/],
  ])('refuses %s with a 400 naming the field, changing nothing', async (_name, body, field) => {
    const before = await device('light-1');
    const res = await http.post('/api/devices/light-1/automation', body, admin);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(JSON.stringify(res.body)).toMatch(field);
    expect(await device('light-1')).toEqual(before);
  });
});

describe('VPD and dew point', () => {
  it('every DHT11 reading carries vpdKpa and dewPointC from the formulas of docs/decisions.md', async () => {
    const latest = (await http.get('/api/sensors/latest/default', viewer)).body.data;
    const dht = latest.find((r: any) => r.sensorType === 'DHT11');
    expect(dht.vpdKpa).toBeCloseTo(vpdKpa(dht.temperature, dht.humidity), 2);
    expect(dht.dewPointC).toBeCloseTo(dewPointC(dht.temperature, dht.humidity)!, 1);
    // 25 °C at 50 %RH: es = 3.162 kPa, VPD 1.581 kPa; dew point 13.9 °C (worked by hand).
    expect(vpdKpa(25, 50)).toBeCloseTo(1.581, 3);
    expect(dewPointC(25, 50)).toBeCloseTo(13.85, 1);
    const history = (await http.get('/api/sensors/historical/default?hours=1&sensorType=DHT11', viewer)).body.data;
    expect(history.length).toBeGreaterThan(0);
    for (const point of history) expect(point.vpdKpa).toBeGreaterThanOrEqual(0);
    expect(latest.find((r: any) => r.sensorType === 'LDR').vpdKpa).toBeUndefined();
  });
});

describe('heater cut-off', () => {
  it('above heaterCutoffC safety switches the heater off and refuses users and rules; visible in settings', async () => {
    const settings = (await http.get('/api/settings/default', viewer)).body.data;
    expect(settings.deviceSettings.heaterCutoffC).toBe(35);
    expect((await http.post('/api/devices/heater-1/control', { action: 'on' }, admin)).status).toBe(200);
    gw.hardware.simulator!.setInsideTemperature(40);
    await ticks(2);
    expect((await device('heater-1')).status).toBe('OFF');
    expect((await log('heater-1'))[0]).toMatchObject({ source: 'safety', actor: 'HEATER_CUTOFF', newStatus: 'OFF' });
    const refused = await http.post('/api/devices/heater-1/control', { action: 'on' }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/heater cut-off of 35 °C/);
    expect((await active()).some((a) => a.alertType === 'HEATER_CUTOFF' && a.deviceId === 'heater-1')).toBe(true);

    // A rule asking for heat is refused the same way.
    await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: 45 }, autoMode: true }, admin);
    await ticks(2);
    expect((await device('heater-1')).status).toBe('OFF');
    await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: null }, autoMode: false }, admin);

    const bad = await http.put('/api/settings/default/devices', { deviceSettings: { heaterCutoffC: 'hot' } }, admin);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/heaterCutoffC/);
    expect((await http.put('/api/settings/default/devices', { deviceSettings: { heaterCutoffC: 45 } }, admin)).status).toBe(200);
    await ticks(1);
    expect((await http.post('/api/devices/heater-1/control', { action: 'on' }, admin)).status).toBe(200);
    await http.post('/api/devices/heater-1/control', { action: 'off' }, admin);
    await http.put('/api/settings/default/devices', { deviceSettings: { heaterCutoffC: 35 } }, admin);
    gw.hardware.simulator!.setInsideTemperature(18);
    await ticks(2);
    expect((await active()).some((a) => a.alertType === 'HEATER_CUTOFF')).toBe(false);
  });
});

describe('sensor-loss fail-safe', () => {
  it('a heater held on by its rule goes off within a few intervals of the DHT11 going silent, with an alert, and resumes', async () => {
    gw.hardware.simulator!.setInsideTemperature(12);
    await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: 25 }, autoMode: true }, admin);
    await ticks(1);
    expect((await device('heater-1')).status).toBe('ON');

    expect((await http.post('/api/simulator/faults', { sensor: 'DHT11', fault: 'silent' }, admin)).status).toBe(200);
    let intervals = 0;
    while ((await device('heater-1')).status === 'ON' && intervals < 10) {
      await ticks(1);
      intervals++;
    }
    expect((await device('heater-1')).status).toBe('OFF');
    expect(intervals).toBeLessThanOrEqual(5);
    const entry = (await log('heater-1'))[0];
    expect(entry).toMatchObject({ source: 'safety', actor: 'SENSOR_LOSS', newStatus: 'OFF' });
    expect(entry.reason).toMatch(/sensor loss fail-safe \(air temperature sensor faulted\)/);
    const loss = (await active()).find((a) => a.alertType === 'SENSOR_LOSS');
    expect(loss).toMatchObject({ deviceId: 'heater-1' });
    expect(loss!.message).toMatch(/Heater is in its safe state/);

    // Stays off while silent.
    await ticks(3);
    expect((await device('heater-1')).status).toBe('OFF');

    await http.post('/api/simulator/faults', { sensor: 'DHT11', fault: 'none' }, admin);
    await ticks(2);
    expect((await device('heater-1')).status).toBe('ON');
    expect((await active()).some((a) => a.alertType === 'SENSOR_LOSS')).toBe(false);
    await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: null }, autoMode: false }, admin);
    await http.post('/api/devices/heater-1/control', { action: 'off' }, admin);
  });

  it("with 'hold' a heater still goes off: a heater never runs blind", async () => {
    gw.hardware.simulator!.setInsideTemperature(12);
    await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: 25 }, autoMode: true, sensorLossAction: 'hold' }, admin);
    await ticks(1);
    expect((await device('heater-1')).status).toBe('ON');
    await http.post('/api/simulator/faults', { sensor: 'DHT11', fault: 'silent' }, admin);
    try {
      await ticks(8);
      expect((await device('heater-1')).status).toBe('OFF');
      expect((await log('heater-1'))[0]).toMatchObject({ source: 'safety', newStatus: 'OFF' });
    } finally {
      await http.post('/api/simulator/faults', { sensor: 'DHT11', fault: 'none' }, admin);
    }
    await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: null }, autoMode: false, sensorLossAction: 'off' }, admin);
    await http.post('/api/devices/heater-1/control', { action: 'off' }, admin);
    await ticks(1);
  });
});

describe('schedule window', () => {
  const hhmm = (ms: number) => {
    const d = new Date(ms);
    return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  };

  it('a light with only a schedule is on inside the window and off outside it (a photoperiod), at once', async () => {
    const now = clock.now();
    const inside = { from: hhmm(now - 3_600_000), to: hhmm(now + 3_600_000) };
    const res = await http.post('/api/devices/light-1/automation', { automationRules: { schedule: inside }, autoMode: true }, admin);
    expect(res.status).toBe(200);
    // No tick needed: a changed automation setting is applied at once.
    for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
    expect((await device('light-1')).status).toBe('ON');
    expect((await log('light-1'))[0]).toMatchObject({ source: 'rule', actor: 'schedule', newStatus: 'ON' });
    expect((await log('light-1'))[0].reason).toBe(`inside schedule ${inside.from}-${inside.to}`);

    // A window that has just closed (crossing midnight the other way round): off.
    const outside = { from: hhmm(now + 3_600_000), to: hhmm(now - 3_600_000) };
    await http.post('/api/devices/light-1/automation', { automationRules: { schedule: outside } }, admin);
    await ticks(1);
    expect((await device('light-1')).status).toBe('OFF');
    expect((await log('light-1'))[0].reason).toBe(`outside schedule ${outside.from}-${outside.to}`);
    await http.post('/api/devices/light-1/automation', { automationRules: { schedule: null }, autoMode: false }, admin);
  });
});

describe('rule preview', () => {
  it('replays rules over the recorded history, touching nothing', async () => {
    const before = await device('fan-1');
    const res = await http.post('/api/devices/fan-1/automation/preview', { automationRules: { temperatureHigh: 15 }, hours: 1 }, viewer);
    expect(res.status).toBe(200);
    const preview = res.body.data;
    expect(preview.timeline[0]).toMatchObject({ status: 'OFF', reason: 'state at the start of the window' });
    expect(preview.switches).toBe(preview.timeline.length - 1);
    expect(preview.switches).toBeGreaterThan(0);
    expect(preview.timeline[1]).toMatchObject({ status: 'ON' });
    expect(preview.timeline[1].reason).toMatch(/temperatureHigh 15°C/);
    expect(preview.energyWh).toBeCloseTo((preview.onSeconds * before.powerConsumption) / 3600, 0);
    expect(await device('fan-1')).toEqual(before);
    const log = (await http.get('/api/devices/fan-1/log', admin)).body.data;
    expect(log.filter((l: any) => l.source === 'rule')).toHaveLength(0);
  });

  it.each([
    ['hours out of range', { automationRules: {}, hours: 0 }, /hours/],
    ['hours missing', { automationRules: {} }, /hours/],
    ['a bad rule', { automationRules: { humidityHigh: 150 }, hours: 1 }, /automationRules\.humidityHigh/],
    ['a sunrise schedule without a site', { automationRules: { schedule: { from: 'sunrise', to: 'sunset' } }, hours: 1 }, /automationRules\.schedule/],
  ])('refuses %s with a 400 naming the field', async (_name, body, field) => {
    const res = await http.post('/api/devices/fan-1/automation/preview', body, admin);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(field);
  });

  it('is a 404 for an unknown device', async () => {
    expect((await http.post('/api/devices/nope/automation/preview', { automationRules: {}, hours: 1 }, admin)).status).toBe(404);
  });
});

describe('light integral', () => {
  it('answers an estimated DLI per local day; bad days is a 400 naming it', async () => {
    const res = await http.get('/api/sensors/light-integral/default?days=2', viewer);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const day of res.body.data) {
      expect(day.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(day.dliMol).toBeGreaterThan(0);
      expect(day.hoursOfLight).toBeGreaterThan(0);
    }
    for (const days of [0, 32, 'x']) {
      const bad = await http.get(`/api/sensors/light-integral/default?days=${days}`, viewer);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/days/);
    }
  });
});

describe('simulator API', () => {
  it('shows the true model, injects faults and sets the tank, for admins only', async () => {
    const state = (await http.get('/api/simulator', admin)).body.data;
    expect(state.inside.temperatureC).toEqual(expect.any(Number));
    expect(state.tank.depthCm).toBe(100);
    expect(state.faults).toContainEqual({ sensor: 'LDR', fault: 'none' });

    const stuck = await http.post('/api/simulator/faults', { sensor: 'LDR', fault: 'stuck' }, admin);
    expect(stuck.body.data.faults).toContainEqual({ sensor: 'LDR', fault: 'stuck' });
    await http.post('/api/simulator/faults', { sensor: 'LDR', fault: 'none' }, admin);
    const tank = await http.post('/api/simulator/tank', { levelCm: 8 }, admin);
    expect(tank.body.data.tank.levelCm).toBe(8);

    expect((await http.get('/api/simulator', viewer)).status).toBe(403);
    expect((await http.post('/api/simulator/tank', { levelCm: 50 }, viewer)).status).toBe(403);
    expect((await http.get('/api/simulator')).status).toBe(401);
  });

  it.each([
    ['/api/simulator/faults', { sensor: 'CO2', fault: 'silent' }, /sensor/],
    ['/api/simulator/faults', { sensor: 'DHT11', fault: 'broken' }, /fault/],
    ['/api/simulator/tank', { levelCm: 101 }, /levelCm/],
    ['/api/simulator/tank', { levelCm: -1 }, /levelCm/],
    ['/api/simulator/tank', { level: 5 }, /level/],
  ])('refuses bad input to %s with a 400 naming the field', async (path, body, field) => {
    const res = await http.post(path, body, admin);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(field);
  });

  it('is a 404 on hardware', async () => {
    const hwGw = await startTestGateway({}, { clock: new ManualClock(), hardware: hardwareWith(fakeSensors().sensors) });
    try {
      const hwHttp = httpClient(hwGw.url);
      const token = await registerUser(hwHttp, { username: 'pi-admin' });
      expect((await hwHttp.get('/api/simulator', token)).status).toBe(404);
      expect((await hwHttp.post('/api/simulator/tank', { levelCm: 5 }, token)).status).toBe(404);
    } finally {
      await hwGw.dispose();
    }
  });
});
