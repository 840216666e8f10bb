import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { createSimulatorHardware } from '../../../../drivers/simulator/hardware.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import { outputs } from '../fixtures.ts';

const sensors = [
  { sensorId: 'sht', kind: 'SHT4X', name: 'sht', bus: 1, address: 0x44 },
  { sensorId: 'dht', kind: 'DHT11', name: 'dht', pin: 4 },
  { sensorId: 'co2', kind: 'SCD4X', name: 'co2', bus: 1, address: 0x62 },
  { sensorId: 'baro', kind: 'BME280', name: 'baro', bus: 1, address: 0x76 },
  { sensorId: 'roots', kind: 'DS18B20', name: 'roots', w1Id: '28-0316a2796aff' },
] as const;

const make = (seed: number) => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
  return { clock, hw: createSimulatorHardware({ clock, sensors, outputs, simulator: { seed } }) };
};

async function series(seed: number, sensorId: string, n = 200) {
  const { clock, hw } = make(seed);
  const sensor = hw.sensors.find((s) => s.sensorId === sensorId)!;
  const out: Array<Record<string, number | undefined>> = [];
  for (let i = 0; i < n; i++) {
    clock.advance(5000);
    out.push(await sensor.read());
  }
  return { out, truth: hw.simulator.snapshot() };
}

describe('simulated sensor instances', () => {
  it('is deterministic for a seed, and each instance has its own noise', async () => {
    expect((await series(5, 'sht', 20)).out).toEqual((await series(5, 'sht', 20)).out);
    expect((await series(5, 'sht', 20)).out).not.toEqual((await series(6, 'sht', 20)).out);
  });

  it("spreads each kind's readings by its datasheet accuracy: an SHT4x much tighter than a DHT11", async () => {
    const spread = (values: number[]) => {
      const diffs = values.slice(1).map((v, i) => Math.abs(v - values[i]!));
      return diffs.reduce((a, b) => a + b, 0) / diffs.length;
    };
    const sht = (await series(9, 'sht')).out.map((v) => v.humidityPct!);
    const dht = (await series(9, 'dht')).out.map((v) => v.humidityPct!);
    expect(spread(sht)).toBeLessThan(spread(dht));
  });

  it('models CO2, pressure and root temperature plainly, in their ranges', async () => {
    const { hw } = make(3);
    const read = async (id: string) => hw.sensors.find((s) => s.sensorId === id)!.read();
    const co2 = await read('co2');
    expect(co2.co2Ppm).toBeGreaterThan(100);
    expect(co2.co2Ppm).toBeLessThan(1000);
    expect((await read('baro')).pressureHpa).toBeGreaterThan(990);
    expect((await read('roots')).rootTemperatureC).toBeGreaterThan(5);
  });

  it('faults one instance by its sensorId, and a whole zone by its switch', async () => {
    const { hw } = make(3);
    hw.simulator.injectInstanceFault('sht', { kind: 'silent' });
    await expect(hw.sensors[0]!.read()).rejects.toBeInstanceOf(SensorReadError);
    await expect(hw.sensors[1]!.read()).resolves.toHaveProperty('temperatureC');
    hw.simulator.injectInstanceFault('sht', null);
    hw.simulator.injectFault('climate', { kind: 'silent' });
    for (const id of ['sht', 'dht', 'co2', 'baro']) await expect(hw.sensors.find((s) => s.sensorId === id)!.read()).rejects.toBeInstanceOf(SensorReadError);
    await expect(hw.sensors.find((s) => s.sensorId === 'roots')!.read()).resolves.toHaveProperty('rootTemperatureC');
  });
});
