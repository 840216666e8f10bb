import type { Clock } from '../../common/clock.ts';
import { delay } from '../../common/delay.ts';
import { checkAddress, checkBusNumber, openProbed, type I2cDevice } from './i2c-device.ts';
import type { I2cBusModule } from './native.ts';
import { sensirionWords } from './sensirion-crc.ts';
import {
  decodeSht4x,
  SHT4X_ADDRESSES,
  SHT4X_COMMAND_MS,
  SHT4X_MEASURE_HIGH_PRECISION,
  SHT4X_MEASUREMENT_MS,
  SHT4X_READ_SERIAL,
  type Sht4xReading,
} from './sht4x-convert.ts';

export interface Sht4xOptions {
  i2c: I2cBusModule;
  bus: number;
  address: number;
  clock: Clock;
  /** Names the sensor in read errors (its sensorId). */
  sensor?: string;
}

/** SHT40/41/45 on I2C: one high-precision measurement per read. */
export class Sht4xSensor {
  readonly #device: I2cDevice;
  readonly #clock: Clock;
  /** The chip's serial number, read at open (it tells two probes on one bus apart in logs). */
  readonly serialNumber: number;

  private constructor(device: I2cDevice, clock: Clock, serialNumber: number) {
    this.#device = device;
    this.#clock = clock;
    this.serialNumber = serialNumber;
  }

  static async open(options: Sht4xOptions): Promise<Sht4xSensor> {
    checkBusNumber('SHT4X', options.bus);
    checkAddress('SHT4X', options.address, SHT4X_ADDRESSES);
    const sensor = options.sensor ?? 'SHT4X';
    const { device, probed } = await openProbed({ ...options, sensor, chip: 'SHT4X' }, async (d) => {
      await d.write(SHT4X_READ_SERIAL);
      await delay(options.clock, SHT4X_COMMAND_MS);
      const [high, low] = sensirionWords(await d.read(6), 2, sensor) as [number, number];
      return high * 0x10000 + low;
    });
    return new Sht4xSensor(device, options.clock, probed);
  }

  read(): Promise<Sht4xReading> {
    return this.#device.exclusive(async () => {
      await this.#device.write(SHT4X_MEASURE_HIGH_PRECISION);
      await delay(this.#clock, SHT4X_MEASUREMENT_MS);
      return decodeSht4x(await this.#device.read(6), this.#device.sensor);
    });
  }

  close(): Promise<void> {
    return this.#device.exclusive(() => this.#device.close());
  }
}
