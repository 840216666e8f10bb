import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { createSimulatorHardware, type SimulatorHardware } from '../../drivers/simulator/hardware.ts';
import { ConfigSchema, type Config } from '../../server/config/schema.ts';
import { loadConfig } from '../../server/config/load.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * Calibration of the soil probe (dry and wet raw counts) and the LDR (a reference lux reading) over real
 * HTTP on the simulated ADS1115: applied from the next reading, stored history untouched, bad input a
 * 400 naming the field.
 */
const config = Value.Default(ConfigSchema, {}) as Config;
const GH = 'greenhouse-001';

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let clock: ManualClock;
let hw: SimulatorHardware;

async function pass(ms: number): Promise<void> {
  await clock.advanceAsync(ms, 1_000);
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}
const latest = async (sensorType: string) => ((await http.get(`/api/sensors/latest/${GH}`, admin)).body.data as Array<Record<string, any>>).find((r) => r.sensorType === sensorType)!;
const view = async (sensorId: string) => ((await http.get(`/api/sensors/calibration/${GH}`, admin)).body.data as Array<Record<string, any>>).find((v) => v.sensorId === sensorId)!;

beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-06-10T10:00:00Z'));
  hw = createSimulatorHardware({ clock, sensors: loadConfig({}).sensorInstances, outputs: config.outputs, simulator: { seed: 5 } });
  gw = await startTestGateway({}, { clock, hardware: hw });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
  hw.simulator.setSoilMoisture(30);
  await pass(10_000);
});
afterAll(async () => {
  await gw.dispose();
});

describe('soil probe calibration', () => {
  it('shows the live raw count with the config calibration, and refuses dry equal to wet', async () => {
    const soil = await view('soil');
    expect(soil).toMatchObject({ kind: 'ADS1115_SOIL', dryRaw: 17500, wetRaw: 7500, calibrated: false });
    // 30 % between 17500 (dry) and 7500 (wet), give or take the probe's noise.
    expect(soil.raw).toBeGreaterThan(14_300);
    expect(soil.raw).toBeLessThan(14_700);
    const bad = await http.put(`/api/sensors/calibration/${GH}/soil/soil`, { dryRaw: 16000, wetRaw: 16000 }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/wetRaw/);
    for (const body of [{ dryRaw: 40000, wetRaw: 7000 }, { dryRaw: 17000 }, { dryRaw: 17000, wetRaw: 7000, offset: 1 }]) {
      const res = await http.put(`/api/sensors/calibration/${GH}/soil/soil`, body, admin);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/dryRaw|wetRaw|offset/);
    }
    expect((await view('soil')).calibrated).toBe(false);
  });

  it('a two-step calibration applies from the next reading; stored readings keep their values', async () => {
    const before = (await latest('SOIL_MOISTURE')).soilMoisture;
    expect(before).toBeGreaterThan(27);
    expect(before).toBeLessThan(33);
    // The probe read 17500 in dry air and 12500 in water: the same raw count now reads about 60 %.
    const res = await http.put(`/api/sensors/calibration/${GH}/soil/soil`, { dryRaw: 17500, wetRaw: 12500 }, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ dryRaw: 17500, wetRaw: 12500, calibrated: true });
    await pass(10_000);
    const after = (await latest('SOIL_MOISTURE')).soilMoisture;
    expect(after).toBeGreaterThan(55);
    expect(after).toBeLessThan(65);
    const history = (await http.get(`/api/sensors/historical/${GH}?hours=1&sensorType=SOIL_MOISTURE`, admin)).body.data as Array<{ soilMoisture: number }>;
    expect(history[0]!.soilMoisture).toBeLessThan(33);
    // Back to the config.
    expect((await http.del(`/api/sensors/calibration/${GH}/soil`, admin)).body.data).toMatchObject({ dryRaw: 17500, wetRaw: 7500, calibrated: false });
    await pass(10_000);
    expect((await latest('SOIL_MOISTURE')).soilMoisture).toBeLessThan(33);
  });
});

describe('LDR calibration', () => {
  it('scales the light curve so the LDR reads the reference meter', async () => {
    const ldr = await view('ldr');
    expect(ldr).toMatchObject({ kind: 'ADS1115_LDR', luxScale: 1, calibrated: false });
    const res = await http.put(`/api/sensors/calibration/${GH}/ldr/light`, { referenceLux: ldr.value * 2 }, admin);
    expect(res.status).toBe(200);
    expect(res.body.data.luxScale).toBeCloseTo(2, 1);
    await pass(10_000);
    const reading = (await latest('LDR')).lightIntensity;
    const truth = hw.simulator.snapshot().lux;
    expect(reading / truth).toBeGreaterThan(1.5);
    const wild = await http.put(`/api/sensors/calibration/${GH}/ldr/light`, { referenceLux: ldr.value * 1000 }, admin);
    expect(wild.status).toBe(400);
    expect(wild.body.message).toMatch(/referenceLux/);
  });
});
