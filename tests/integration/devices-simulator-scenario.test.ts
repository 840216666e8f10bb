import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { createSimulatorHardware, type SimulatorHardware } from '../../drivers/simulator/hardware.ts';
import { ConfigSchema, type Config } from '../../server/config/schema.ts';
import { loadConfig } from '../../server/config/load.ts';
import type { GatewayEvents } from '../../server/events/bus.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import type { SensorSnapshot } from '../../server/contract/reading.ts';

/*
 * The pump in auto mode against the simulated greenhouse: dry soil is watered back, the tank level
 * falls, and the dry-run lockout stops the pump when the tank runs low. The gateway's own sampling loop
 * reads the simulator every 10 s of ManualClock time; each step waits for its tick.
 */
const config = Value.Default(ConfigSchema, {}) as Config;
const TICK_MS = 10_000;

let gw: TestGateway;
let http: HttpClient;
let token: string;
let clock: ManualClock;
let hw: SimulatorHardware;
const safetyEvents: Array<GatewayEvents['safetyEvent']> = [];

/** One sampling tick of the real loop: time moves, the tick is stored and published, automation settles. */
async function tick(): Promise<{ soil: number | null; level: number | null; pumpOn: boolean }> {
  const taken = new Promise<SensorSnapshot>((resolve) => {
    const off = gw.bus.on('sampleTaken', 'scenario-test', ({ snapshot }) => {
      off();
      resolve(snapshot);
    });
  });
  await clock.advanceAsync(TICK_MS);
  const snapshot = await taken;
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return { soil: snapshot.values.soilMoisture, level: snapshot.values.waterLevel, pumpOn: hw.simulator.isOutputOn('relay-1') };
}

beforeAll(async () => {
  clock = new ManualClock();
  hw = createSimulatorHardware({ clock, sensors: loadConfig({}).sensorInstances, outputs: config.outputs, simulator: { seed: 7 } });
  gw = await startTestGateway({}, { clock, hardware: hw });
  gw.bus.on('safetyEvent', 'test', (event) => safetyEvents.push(event));
  http = httpClient(gw.url);
  token = await registerUser(http, { username: 'grower' });
  gw.settings.updateDevices({ minOnSeconds: 0, minOffSeconds: 0, pumpMaxRunSeconds: 600, tankLowLevelCm: 10 });
  gw.settings.updateSystem({ updateInterval: TICK_MS / 1000 });
  const auto = await http.post('/api/devices/pump-1/automation', { automationRules: { soilMoistureLow: 30 }, autoMode: true }, token);
  expect(auto.status).toBe(200);
});
afterAll(async () => {
  await gw.dispose();
});

describe('simulator scenario: auto-mode pump, falling tank, dry-run lockout', () => {
  it('waters dry soil back above the threshold + band, then stops by rule', async () => {
    hw.simulator.setTankLevelCm(40);
    hw.simulator.setSoilMoisture(22);
    const first = await tick();
    expect(first.pumpOn).toBe(true);
    let last = first;
    for (let i = 0; i < 12 && last.pumpOn; i++) last = await tick();
    expect(last.pumpOn).toBe(false);
    // Stopped only once the soil was back past 30 + 3 (the soil deadband), not at the threshold.
    expect(last.soil!).toBeGreaterThan(33);
    expect(last.level!).toBeLessThan(40);
    const log = (await http.get('/api/devices/pump-1/log', token)).body.data;
    expect(log.slice(0, 2).map((l: any) => [l.source, l.actor, l.newStatus])).toEqual([
      ['rule', 'soilMoistureLow', 'OFF'],
      ['rule', 'soilMoistureLow', 'ON'],
    ]);
  });

  it('the lockout stops the pump when the tank runs low, emits a safetyEvent and logs it', async () => {
    hw.simulator.setTankLevelCm(14);
    hw.simulator.setSoilMoisture(20);
    expect((await tick()).pumpOn).toBe(true);
    let state = await tick();
    for (let i = 0; i < 10 && state.pumpOn; i++) state = await tick();
    expect(state.pumpOn).toBe(false);
    expect(state.level!).toBeLessThan(10);
    expect(safetyEvents).toMatchObject([{ kind: 'DRY_RUN_LOCKOUT', deviceId: 'pump-1', active: true }]);
    expect(safetyEvents[0]!.message).toMatch(/Water tank level is too low/);

    // The soil is still dry, but the rule may not restart the pump while the lockout holds.
    for (let i = 0; i < 3; i++) expect((await tick()).pumpOn).toBe(false);
    const log = (await http.get('/api/devices/pump-1/log', token)).body.data;
    expect(log[0]).toMatchObject({ source: 'safety', actor: 'DRY_RUN_LOCKOUT', previousStatus: 'ON', newStatus: 'OFF' });
    expect(log.filter((l: any) => l.source === 'rule' && l.newStatus === 'ON')).toHaveLength(2);

    const manual = await http.post('/api/devices/pump-1/control', { action: 'turn_on' }, token);
    expect(manual.status).toBe(409);
    expect(manual.body).toMatchObject({ message: expect.stringMatching(/Tank low \(\d+\.\d cm, minimum 10 cm\): pump locked/), lock: { kind: 'dry_run' } });
  });
});
