import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { createSimulatorHardware } from '../../../../drivers/simulator/hardware.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import { outputs, readOne, sensorOf, sensors } from '../fixtures.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

function make(seed = 7, startMs = Date.UTC(2026, 5, 1, 12, 0, 0)) {
  const clock = new ManualClock(startMs);
  const hw = createSimulatorHardware({ clock, sensors, outputs, simulator: { seed } });
  return { clock, hw, sim: hw.simulator };
}

describe('simulated greenhouse: output effects', () => {
  it('heater on raises temperature compared with heater off (same seed)', async () => {
    const off = make(1, Date.UTC(2026, 0, 15, 2, 0, 0));
    const on = make(1, Date.UTC(2026, 0, 15, 2, 0, 0));
    await on.hw.outputs.get('relay-4')!.set(true);
    off.clock.advance(30 * MIN);
    on.clock.advance(30 * MIN);
    const diff = on.sim.snapshot().insideTemperatureC - off.sim.snapshot().insideTemperatureC;
    expect(diff).toBeGreaterThan(5);
    expect((await sensorOf(on.hw, 'dht11')!.read()).temperatureC).toBeGreaterThan((await sensorOf(off.hw, 'dht11')!.read()).temperatureC!);
  });

  it('pump raises soil moisture and lowers the tank (1 cm per 10 s on a 100 cm tank)', async () => {
    const { clock, hw, sim } = make();
    sim.setSoilMoisture(30);
    const before = sim.snapshot();
    await hw.outputs.get('relay-1')!.set(true);
    clock.advance(60_000);
    await hw.outputs.get('relay-1')!.set(false);
    const after = sim.snapshot();
    expect(after.soilMoisturePct).toBeGreaterThan(before.soilMoisturePct + 5);
    expect(before.tankLevelCm - after.tankLevelCm).toBeCloseTo(6, 5);
    expect(await readOne(hw, 'tank', 'waterLevelCm')).toBeCloseTo(after.tankLevelCm, 0);
    // The rest of the water reaches the probe during the soak that follows.
    clock.advance(3 * 60_000);
    expect(sim.snapshot().soilMoisturePct).toBeGreaterThan(after.soilMoisturePct + 2);
    expect(await readOne(hw, 'soil', 'soilMoisturePct')).toBeGreaterThan(36);
  });

  it('water reaches the probe after an infiltration delay; a long run loses water to runoff, pulses with soaks do not', () => {
    const rise = (plan: Array<[on: boolean, ms: number]>) => {
      const { clock, sim } = make();
      sim.setSoilMoisture(30);
      for (const [on, ms] of plan) {
        if (on) sim.setOutput('relay-1', true);
        clock.advance(ms);
        sim.setOutput('relay-1', false);
      }
      return sim.snapshot().soilMoisturePct - 30;
    };
    // 60 s of water either way (12 points poured), compared after the same 15 minutes.
    const long = rise([[true, 60_000], [false, 14 * 60_000]]);
    const pulses = rise([[true, 20_000], [false, 4 * 60_000], [true, 20_000], [false, 4 * 60_000], [true, 20_000], [false, 6 * 60_000]]);
    expect(pulses).toBeGreaterThan(long + 1);
    expect(pulses).toBeGreaterThan(10);
  });

  it('soil dries faster in sun than at night, and faster when warm (same seed, deterministic)', () => {
    const dried = (startMs: number, heater: boolean) => {
      const { clock, sim } = make(3, startMs);
      sim.setSoilMoisture(50);
      if (heater) sim.setOutput('relay-4', true);
      clock.advance(2 * HOUR);
      return 50 - sim.snapshot().soilMoisturePct;
    };
    const noon = Date.UTC(2026, 5, 1, 11, 0, 0);
    const night = Date.UTC(2026, 5, 1, 23, 0, 0);
    expect(dried(noon, false)).toBeGreaterThan(dried(night, false) * 2);
    expect(dried(night, true)).toBeGreaterThan(dried(night, false));
    expect(dried(noon, false)).toBe(dried(noon, false));
  });

  it('an empty tank pumps nothing', () => {
    const { clock, hw, sim } = make();
    sim.setTankLevelCm(0);
    sim.setSoilMoisture(30);
    void hw.outputs.get('relay-1')!.set(true);
    clock.advance(60_000);
    expect(sim.snapshot().soilMoisturePct).toBeLessThan(30);
    expect(sim.snapshot().tankLevelCm).toBe(0);
  });

  it.each([
    ['fan', 'relay-2'],
    ['window', 'servo-1'],
    ['cooling', 'relay-5'],
  ])('%s cools a hot house', async (_name, outputId) => {
    const idle = make(3);
    const active = make(3);
    idle.sim.setInsideTemperature(38);
    active.sim.setInsideTemperature(38);
    await active.hw.outputs.get(outputId)!.set(true);
    idle.clock.advance(20 * MIN);
    active.clock.advance(20 * MIN);
    expect(active.sim.snapshot().insideTemperatureC).toBeLessThan(idle.sim.snapshot().insideTemperatureC - 1);
  });

  it('cooling cools more than the fan; the fan dries, the evaporative cooler humidifies', async () => {
    const fan = make(3);
    const cooler = make(3);
    await fan.hw.outputs.get('relay-2')!.set(true);
    await cooler.hw.outputs.get('relay-5')!.set(true);
    fan.clock.advance(HOUR);
    cooler.clock.advance(HOUR);
    expect(cooler.sim.snapshot().insideTemperatureC).toBeLessThan(fan.sim.snapshot().insideTemperatureC);
    expect(cooler.sim.snapshot().insideHumidityPct).toBeGreaterThan(fan.sim.snapshot().insideHumidityPct);
  });

  it('is dark at night and the grow lights add lux', async () => {
    const { clock, hw, sim } = make(5, Date.UTC(2026, 5, 1, 23, 0, 0));
    expect(sim.snapshot().lux).toBe(0);
    const darkLux = await readOne(hw, 'ldr', 'lightLux');
    expect(darkLux).toBeLessThan(2); // the curve's lowest point
    await hw.outputs.get('relay-3')!.set(true);
    clock.advance(10_000);
    expect(await readOne(hw, 'ldr', 'lightLux')).toBeGreaterThan(3000);
  });

  it('has strong sun at noon', async () => {
    const { hw } = make(5, Date.UTC(2026, 5, 1, 12, 0, 0));
    expect(await readOne(hw, 'ldr', 'lightLux')).toBeGreaterThan(20_000);
  });

  it('safeState switches everything off', async () => {
    const { hw, sim } = make();
    for (const o of hw.outputs.values()) await o.set(true);
    await hw.safeState();
    for (const id of hw.outputs.keys()) expect(sim.isOutputOn(id)).toBe(false);
    expect(sim.snapshot().activeEffects).toEqual([]);
  });

  it('a free output has no effect until bound', async () => {
    const { hw, sim } = make();
    await hw.outputs.get('relay-6')!.set(true);
    expect(sim.snapshot().activeEffects).toEqual([]);
    sim.setOutputEffect('relay-6', 'heater');
    expect(sim.snapshot().activeEffects).toEqual(['heater']);
  });
});

describe('simulated greenhouse: determinism', () => {
  async function run(seed: number, readEveryMs: number) {
    const { clock, hw, sim } = make(seed);
    const readings: unknown[] = [];
    await hw.outputs.get('relay-4')!.set(true);
    for (let t = 0; t < 2 * HOUR; t += readEveryMs) {
      clock.advance(readEveryMs);
      readings.push(await sensorOf(hw, 'dht11')!.read().catch((e: Error) => e.message), await readOne(hw, 'ldr', 'lightLux'), await readOne(hw, 'soil', 'soilMoisturePct'), await readOne(hw, 'tank', 'waterLevelCm'));
    }
    return { readings, state: sim.snapshot() };
  }

  it('same seed and same clock steps give identical readings', async () => {
    expect(await run(11, 60_000)).toEqual(await run(11, 60_000));
  });

  it('a different seed differs', async () => {
    expect((await run(11, 60_000)).readings).not.toEqual((await run(12, 60_000)).readings);
  });

  it('the true state does not depend on how often it is read', async () => {
    const often = await run(11, 10_000);
    const rarely = await run(11, 15 * MIN);
    expect(often.state).toEqual(rarely.state);
  });
});

describe('simulated greenhouse: faults', () => {
  it('a silent sensor throws SensorReadError; clearing the fault restores it', async () => {
    const { hw, sim } = make();
    sim.injectFault('climate', { kind: 'silent' });
    await expect(sensorOf(hw, 'dht11')!.read()).rejects.toBeInstanceOf(SensorReadError);
    sim.injectFault('climate', null);
    await expect(sensorOf(hw, 'dht11')!.read()).resolves.toHaveProperty('temperatureC');
  });

  it('a stuck sensor repeats one value while the greenhouse changes', async () => {
    const { clock, hw, sim } = make();
    sim.injectFault('soil', { kind: 'stuck' });
    const first = await readOne(hw, 'soil', 'soilMoisturePct');
    await hw.outputs.get('relay-1')!.set(true);
    clock.advance(5 * MIN);
    expect(await readOne(hw, 'soil', 'soilMoisturePct')).toBe(first);
    sim.injectFault('waterLevel', { kind: 'stuck', value: 42 });
    expect(await readOne(hw, 'tank', 'waterLevelCm')).toBe(42);
    sim.injectFault('climate', { kind: 'stuck', value: 45 });
    expect((await sensorOf(hw, 'dht11')!.read()).temperatureC).toBe(45);
  });

  it('validates the test controls', () => {
    const { sim } = make();
    expect(() => sim.setTankLevelCm(101)).toThrow(/0-100/);
    expect(() => sim.setSoilMoisture(-1)).toThrow(/soil/);
    expect(() => sim.setOutput('nope', true)).toThrow(/nope/);
  });
});
