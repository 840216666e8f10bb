import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { createSimulatorHardware, type SimulatorHardware } from '../../drivers/simulator/hardware.ts';
import { ConfigSchema, type Config } from '../../server/config/schema.ts';
import { loadConfig } from '../../server/config/load.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * POST /api/simulator/soil and an irrigation program against the simulated bed (seeded, so the same
 * every run): the water reaches the probe after an infiltration delay, so the soil keeps rising during
 * the soak that follows each pulse.
 */
const config = Value.Default(ConfigSchema, {}) as Config;

let gw: TestGateway;
let http: HttpClient;
let token: string;
let clock: ManualClock;
let hw: SimulatorHardware;

async function pass(ms: number): Promise<void> {
  await clock.advanceAsync(ms, 1_000);
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}
const trueSoil = () => hw.simulator.snapshot().soilMoisturePct;

beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-06-10T06:00:00Z'));
  hw = createSimulatorHardware({ clock, sensors: loadConfig({}).sensorInstances, outputs: config.outputs, simulator: { seed: 11 } });
  gw = await startTestGateway({}, { clock, hardware: hw });
  http = httpClient(gw.url);
  token = await registerUser(http, { username: 'grower' });
  gw.settings.updateDevices({ minOnSeconds: 0, minOffSeconds: 0, pumpMaxRunSeconds: 600 });
});
afterAll(async () => {
  await gw.dispose();
});

describe('the simulated bed', () => {
  it('POST /api/simulator/soil sets the soil; out of range is a 400 naming moisturePct and changes nothing', async () => {
    const set = await http.post('/api/simulator/soil', { moisturePct: 22 }, token);
    expect(set.status).toBe(200);
    expect(set.body.data.inside.soilMoisturePct).toBe(22);
    for (const body of [{ moisturePct: 150 }, { moisturePct: '20' }, { pct: 20 }]) {
      const bad = await http.post('/api/simulator/soil', body, token);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/moisturePct|pct/);
    }
    expect((await http.get('/api/simulator', token)).body.data.inside.soilMoisturePct).toBe(22);
  });

  it('an irrigation program waters it in pulses; the soil keeps rising through each soak', async () => {
    const program = { startBelowPct: 30, targetPct: 38, pulseSeconds: 20, soakMinutes: 4, maxPulses: 6, maxRunSecondsPerDay: 600 };
    expect((await http.post('/api/devices/pump-1/automation', { autoMode: true, automationRules: { irrigation: program } }, token)).status).toBe(200);
    await pass(1_000);
    expect(hw.simulator.isOutputOn('relay-1')).toBe(true);
    await pass(20_000);
    expect(hw.simulator.isOutputOn('relay-1')).toBe(false);
    const atPulseEnd = trueSoil();
    await pass(3 * 60_000);
    // 20 s at 0.2 points/s poured 4 points; most of it reached the probe during the soak.
    expect(trueSoil() - atPulseEnd).toBeGreaterThan(2);
    await pass(60 * 60_000);
    expect(trueSoil()).toBeGreaterThanOrEqual(38 - 1);
    const log = (await http.get('/api/devices/pump-1/log?limit=50', token)).body.data as Array<{ newStatus: string; actor: string }>;
    const pulses = log.filter((e) => e.newStatus === 'ON' && e.actor === 'irrigation').length;
    expect(pulses).toBeGreaterThanOrEqual(2);
    expect(pulses).toBeLessThanOrEqual(6);
  });
});
