import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { createSimulatorHardware, type SimulatorHardware } from '../../drivers/simulator/hardware.ts';
import { ConfigSchema, type Config } from '../../server/config/schema.ts';
import { loadConfig } from '../../server/config/load.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * The roof window following the program against the simulated greenhouse on a sunny June day: the
 * gateway's own sampling loop reads the simulator every 30 s of ManualClock time; the window opens
 * part-way, the simulator exchanges air in proportion, and the house is held cooler than it would be shut.
 */
const config = Value.Default(ConfigSchema, {}) as Config;
const TICK_MS = 30_000;
const START = Date.UTC(2026, 5, 1, 10, 0, 0);

async function runMorning(follow: boolean): Promise<{ gw: TestGateway; hw: SimulatorHardware; http: HttpClient; token: string; openings: number[]; insideC: number }> {
  const clock = new ManualClock(START);
  const hw = createSimulatorHardware({ clock, sensors: loadConfig({}).sensorInstances, outputs: config.outputs, simulator: { seed: 11 } });
  const gw = await startTestGateway({}, { clock, hardware: hw });
  const http = httpClient(gw.url);
  const token = await registerUser(http, { username: 'grower' });
  gw.settings.updateDevices({ minOnSeconds: 0, minOffSeconds: 0 });
  gw.settings.updateSystem({ updateInterval: TICK_MS / 1000 });
  const program = { periods: [{ start: '00:00', heatBelowC: 5, ventAboveC: 24, rampMinutes: 0 }] };
  expect((await http.put('/api/climate/default', program, token)).status).toBe(200);
  if (follow) expect((await http.post('/api/devices/window-1/automation', { automationRules: { follow: 'vent', proportionalBandC: 6 }, autoMode: true }, token)).status).toBe(200);
  const openings: number[] = [];
  for (let i = 0; i < 4 * 120; i++) {
    await clock.advanceAsync(TICK_MS, 1000);
    for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
    openings.push(hw.simulator.outputOpenPct('servo-1'));
  }
  return { gw, hw, http, token, openings, insideC: hw.simulator.snapshot().insideTemperatureC };
}

describe('the roof window following the program in the simulated greenhouse', () => {
  let following: Awaited<ReturnType<typeof runMorning>>;
  let shut: Awaited<ReturnType<typeof runMorning>>;

  beforeAll(async () => {
    following = await runMorning(true);
    shut = await runMorning(false);
  });
  afterAll(async () => {
    await following?.gw.dispose();
    await shut?.gw.dispose();
  });

  it('opens part-way, the simulator at the opening the device reports, and holds the house cooler than shut', async () => {
    const partWay = following.openings.filter((pct) => pct > 0 && pct < 100);
    expect(partWay.length).toBeGreaterThan(0);
    const window = (await following.http.get('/api/devices/default', following.token)).body.data.find((d: { deviceId: string }) => d.deviceId === 'window-1');
    expect(window.openPct).toBe(following.openings.at(-1));
    expect(following.insideC).toBeLessThan(shut.insideC - 1);
    expect(shut.openings.every((pct) => pct === 0)).toBe(true);
  });
});
