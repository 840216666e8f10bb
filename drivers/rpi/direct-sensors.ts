import { SENSOR_KINDS, type QuantityKey } from '../../common/catalogue.ts';
import type { Clock } from '../../common/clock.ts';
import { SerialQueue } from '../../common/delay.ts';
import type { DhtInstanceOptions, Ds18b20InstanceOptions, I2cInstanceOptions } from '../options.ts';
import type { QuantityValues, SensorInstanceDriver } from '../types.ts';
import { Bme280Sensor } from './bme280.ts';
import { DHT11_MODEL, DHT22_MODEL, DhtSensor } from './dht-sensor.ts';
import { Ds18b20Sensor, W1_DEVICES_ROOT } from './ds18b20.ts';
import { importNative, type DhtModule, type I2cBusModule } from './native.ts';
import { Scd4xSensor } from './scd4x.ts';
import { Sht3xSensor } from './sht3x.ts';
import { Sht4xSensor } from './sht4x.ts';

/**
 * The instances this module opens: the kinds read directly over node-dht-sensor, I2C (i2c-bus) or the
 * kernel's 1-Wire interface. The ADS1115 channels and the HC-SR04 share an ADC or pigpio and are
 * opened beside them.
 */
export type DirectSensorOptions = DhtInstanceOptions | I2cInstanceOptions | Ds18b20InstanceOptions;

export interface DirectSensorDeps {
  clock: Clock;
  /**
   * Why node-dht-sensor cannot run on this board (a Pi 5's RP1 chip), or null: a DHT instance then
   * fails to open with this reason instead of loading the package.
   */
  dhtRefusal?: string | null;
  loadDht(): Promise<DhtModule>;
  loadI2c(): Promise<I2cBusModule>;
  /** /sys/bus/w1/devices, or a temp dir in tests. */
  w1DevicesRoot: string;
}

export const realDirectSensorDeps = (clock: Clock): DirectSensorDeps => ({
  clock,
  loadDht: () => importNative<DhtModule>('node-dht-sensor'),
  loadI2c: () => importNative<I2cBusModule>('i2c-bus'),
  w1DevicesRoot: W1_DEVICES_ROOT,
});

/** An opened instance: the driver the sampler reads, and how to let go of its bus. */
export interface OpenedDirectSensor {
  driver: SensorInstanceDriver;
  close(): Promise<void>;
}

/**
 * Opens configured instances by kind. Each open probes the chip (or, for a DS18B20, the kernel's
 * listing), so an opened instance means a sensor answered; a failure rejects with an Error saying
 * where to look, and the caller marks that one instance unavailable. Native packages are loaded once,
 * on the first instance that needs them; every DS18B20 shares one queue (one w1_slave read at a time).
 */
export function directSensorOpener(deps: DirectSensorDeps): (options: DirectSensorOptions) => Promise<OpenedDirectSensor> {
  let dht: Promise<DhtModule> | null = null;
  let i2c: Promise<I2cBusModule> | null = null;
  const loadDht = () => (dht ??= deps.loadDht());
  const loadI2c = () => (i2c ??= deps.loadI2c());
  const w1Queue = new SerialQueue();
  const { clock } = deps;

  return async (options) => {
    const sensor = options.sensorId;
    const instance = (read: () => Promise<QuantityValues>, close: () => Promise<void> = async () => {}): OpenedDirectSensor => ({
      driver: describe(options, read),
      close,
    });
    switch (options.kind) {
      case 'DHT11':
      case 'DHT22': {
        if (deps.dhtRefusal) throw new Error(deps.dhtRefusal);
        const model = options.kind === 'DHT11' ? DHT11_MODEL : DHT22_MODEL;
        const d = new DhtSensor({ dht: await loadDht(), model, pin: options.pin, clock, sensor });
        return instance(() => d.read());
      }
      case 'SHT3X': {
        const d = await Sht3xSensor.open({ i2c: await loadI2c(), bus: options.bus, address: options.address, clock, sensor });
        return instance(() => d.read(), () => d.close());
      }
      case 'SHT4X': {
        const d = await Sht4xSensor.open({ i2c: await loadI2c(), bus: options.bus, address: options.address, clock, sensor });
        return instance(() => d.read(), () => d.close());
      }
      case 'BME280': {
        const d = await Bme280Sensor.open({ i2c: await loadI2c(), bus: options.bus, address: options.address, clock, sensor });
        return instance(() => d.read(), () => d.close());
      }
      case 'SCD4X': {
        const d = await Scd4xSensor.open({ i2c: await loadI2c(), bus: options.bus, address: options.address, clock, sensor });
        // Between two 5 s measurements the chip's last one is still its current value (CO2 moves
        // slowly); the driver fails reads once three periods pass without a new one.
        return instance(async () => (await d.read()).values, () => d.close());
      }
      case 'DS18B20': {
        const d = await Ds18b20Sensor.open({ id: options.w1Id, devicesRoot: deps.w1DevicesRoot, queue: w1Queue, sensor });
        return instance(() => d.read());
      }
      default:
        return unknownKind(options);
    }
  };
}

function describe(options: DirectSensorOptions, read: () => Promise<QuantityValues>): SensorInstanceDriver {
  const spec = SENSOR_KINDS[options.kind];
  return {
    sensorId: options.sensorId,
    kind: options.kind,
    name: options.name,
    quantities: spec.quantities as readonly QuantityKey[],
    read,
    retryDelaysMs: spec.retryDelaysMs,
    cacheWindowMs: spec.cacheWindowMs,
  };
}

function unknownKind(options: never): never {
  throw new RangeError(`no direct driver for sensor kind ${JSON.stringify((options as { kind: unknown }).kind)}`);
}
