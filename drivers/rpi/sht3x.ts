import type { Clock } from '../../common/clock.ts';
import { delay } from '../../common/delay.ts';
import { checkAddress, checkBusNumber, openProbed, type I2cDevice } from './i2c-device.ts';
import type { I2cBusModule } from './native.ts';
import { sensirionWords } from './sensirion-crc.ts';
import {
  checkSht3xPlausible,
  decodeSht3x,
  SHT3X_ADDRESSES,
  SHT3X_BREAK,
  SHT3X_BREAK_MS,
  SHT3X_MEASURE_HIGH_REPEATABILITY,
  SHT3X_MEASUREMENT_MS,
  SHT3X_READ_STATUS,
  type Sht3xReading,
} from './sht3x-convert.ts';

export interface Sht3xOptions {
  i2c: I2cBusModule;
  bus: number;
  address: number;
  clock: Clock;
  /** Names the sensor in read errors (its sensorId). */
  sensor?: string;
}

/** SHT30/31/35 on I2C: one single-shot, high-repeatability measurement per read. */
export class Sht3xSensor {
  readonly #device: I2cDevice;
  readonly #clock: Clock;

  private constructor(device: I2cDevice, clock: Clock) {
    this.#device = device;
    this.#clock = clock;
  }

  static async open(options: Sht3xOptions): Promise<Sht3xSensor> {
    checkBusNumber('SHT3X', options.bus);
    checkAddress('SHT3X', options.address, SHT3X_ADDRESSES);
    const sensor = options.sensor ?? 'SHT3X';
    const { device } = await openProbed({ ...options, sensor, chip: 'SHT3X' }, async (d) => {
      await d.write(SHT3X_BREAK);
      await delay(options.clock, SHT3X_BREAK_MS);
      await d.write(SHT3X_READ_STATUS);
      sensirionWords(await d.read(3), 1, sensor); // a checked status word: a Sensirion chip is there
    });
    return new Sht3xSensor(device, options.clock);
  }

  read(): Promise<Sht3xReading> {
    return this.#device.exclusive(async () => {
      await this.#device.write(SHT3X_MEASURE_HIGH_REPEATABILITY);
      await delay(this.#clock, SHT3X_MEASUREMENT_MS);
      const reading = decodeSht3x(await this.#device.read(6), this.#device.sensor);
      return checkSht3xPlausible(reading, this.#device.sensor);
    });
  }

  close(): Promise<void> {
    return this.#device.exclusive(() => this.#device.close());
  }
}
