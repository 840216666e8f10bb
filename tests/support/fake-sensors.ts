import { SENSOR_KINDS, type QuantityKey, type SensorKind } from '../../common/catalogue.ts';
import type { ClimateReading, QuantityValues, SensorInstanceDriver } from '../../drivers/types.ts';
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

/** One sensor instance of `kind` whose answers come from `fake` (converted by `toValues`). */
export function fakeInstance<T>(sensorId: string, kind: SensorKind, fake: FakeSensor<T>, toValues: (value: T) => QuantityValues, name = sensorId): SensorInstanceDriver {
  const spec = SENSOR_KINDS[kind];
  return {
    sensorId,
    kind,
    name,
    quantities: spec.quantities as readonly QuantityKey[],
    retryDelaysMs: spec.retryDelaysMs,
    cacheWindowMs: spec.cacheWindowMs,
    read: async () => toValues(await fake.answer()),
  };
}

/** The four sensors of the release-0.1 wiring (ids dht11, ldr, soil, tank), each a FakeSensor. */
export function fakeSensors(initial: { climate?: ClimateReading; lux?: number; soilPct?: number; levelCm?: number } = {}) {
  const climate = new FakeSensor<ClimateReading>(initial.climate ?? { temperatureC: 22, humidityPct: 60 }, 'DHT11');
  const light = new FakeSensor(initial.lux ?? 500, 'LDR');
  const soil = new FakeSensor(initial.soilPct ?? 40, 'soil');
  const water = new FakeSensor(initial.levelCm ?? 30, 'HC-SR04');
  const sensors = {
    sensors: [
      fakeInstance('dht11', 'DHT11', climate, (r) => ({ temperatureC: r.temperatureC, humidityPct: r.humidityPct })),
      fakeInstance('ldr', 'ADS1115_LDR', light, (lux) => ({ lightLux: lux })),
      fakeInstance('soil', 'ADS1115_SOIL', soil, (pct) => ({ soilMoisturePct: pct })),
      fakeInstance('tank', 'HCSR04', water, (cm) => ({ waterLevelCm: cm })),
    ],
  };
  return { sensors, climate, light, soil, water };
}

/** Hardware with these fake sensors (or none) and fake outputs for the default configured outputs. */
export function hardwareWith(sensors: { sensors?: SensorInstanceDriver[] }): Hardware {
  const outputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
  return { ...fakeHardware(fakeOutputs(outputs)), ...sensors };
}
