import type { ClimateReading, ClimateSensor, LightSensor, SoilMoistureSensor, WaterLevelSensor } from '../../drivers/types.ts';
import { SensorReadError, type Hardware } from '../../drivers/types.ts';
import Value from 'typebox/value';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs } from './fake-outputs.ts';

/**
 * A scriptable fake of one sensor behind the driver interfaces: answers `value`, fails, or hangs (never
 * settles, like a wedged bus). Counts calls.
 */
export class FakeSensor<T> {
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  calls = 0;
  constructor(
    public value: T,
    readonly name: string,
  ) {}

  answer(): Promise<T> {
    this.calls++;
    if (this.mode === 'fail') return Promise.reject(new SensorReadError(this.name, 'checksum error'));
    if (this.mode === 'hang') return new Promise<T>(() => {});
    return Promise.resolve(this.value);
  }
}

export function fakeSensors(initial: { climate?: ClimateReading; lux?: number; soilPct?: number; levelCm?: number } = {}) {
  const climate = new FakeSensor<ClimateReading>(initial.climate ?? { temperatureC: 22, humidityPct: 60 }, 'DHT11');
  const light = new FakeSensor(initial.lux ?? 500, 'LDR');
  const soil = new FakeSensor(initial.soilPct ?? 40, 'soil');
  const water = new FakeSensor(initial.levelCm ?? 30, 'HC-SR04');
  const sensors = {
    climate: { read: () => climate.answer() } satisfies ClimateSensor,
    light: { readLux: () => light.answer() } satisfies LightSensor,
    soil: { readPercent: () => soil.answer() } satisfies SoilMoistureSensor,
    waterLevel: { readLevelCm: () => water.answer() } satisfies WaterLevelSensor,
  };
  return { sensors, climate, light, soil, water };
}

/** Hardware with these fake sensors and fake outputs for the default configured outputs. */
export function hardwareWith(sensors: ReturnType<typeof fakeSensors>['sensors'] | Partial<Record<'climate' | 'light' | 'soil' | 'waterLevel', null>>): Hardware {
  const outputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
  return { ...fakeHardware(fakeOutputs(outputs)), ...sensors };
}
