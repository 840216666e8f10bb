import type { Clock } from '../../common/clock.ts';
import { delay } from '../../common/delay.ts';
import { SensorReadError } from '../types.ts';
import {
  BME280_ADDRESSES,
  BME280_CALIB_A_LENGTH,
  BME280_CALIB_B_LENGTH,
  BME280_CHIP_ID,
  BME280_REG,
  BME280_RESET_WORD,
  BME280_STARTUP_MS,
  BME280_STATUS_IM_UPDATE,
  BME280_STATUS_MEASURING,
  bme280MeasurementTimeMs,
  checkBme280Calibration,
  ctrlMeasForced,
  decodeBme280,
  describeChipId,
  parseBme280Calibration,
  WEATHER_MONITORING,
  type Bme280Calibration,
  type Bme280Reading,
} from './bme280-convert.ts';
import { checkAddress, checkBusNumber, openProbed, type I2cDevice } from './i2c-device.ts';
import type { I2cBusModule } from './native.ts';

export interface Bme280Options {
  i2c: I2cBusModule;
  bus: number;
  address: number;
  clock: Clock;
  /** Names the sensor in read errors (its sensorId). */
  sensor?: string;
}

const SETTINGS = WEATHER_MONITORING;
/** Wait the datasheet's longest measurement time, not the typical one: then one status read suffices. */
const MEASUREMENT_MS = Math.ceil(bme280MeasurementTimeMs(SETTINGS).maxMs);
/** How often open() looks for the NVM copy to finish after the reset before giving up. */
const STARTUP_POLLS = 5;

/**
 * BME280 on I2C in forced mode: each read starts one measurement, waits the datasheet's maximum
 * measurement time, checks the chip has finished and reads the 8 data bytes in one burst. The chip
 * sleeps in between (no self-heating, which matters for the air temperature it reports).
 */
export class Bme280Sensor {
  readonly #device: I2cDevice;
  readonly #clock: Clock;
  readonly calibration: Bme280Calibration;

  private constructor(device: I2cDevice, clock: Clock, calibration: Bme280Calibration) {
    this.#device = device;
    this.#clock = clock;
    this.calibration = calibration;
  }

  static async open(options: Bme280Options): Promise<Bme280Sensor> {
    checkBusNumber('BME280', options.bus);
    checkAddress('BME280', options.address, BME280_ADDRESSES);
    const sensor = options.sensor ?? 'BME280';
    const { device, probed } = await openProbed({ ...options, sensor, chip: 'BME280' }, async (d) => {
      const [id] = await d.readRegisters(BME280_REG.chipId, 1);
      if (id !== BME280_CHIP_ID) throw new Error(describeChipId(id!));
      // A soft reset leaves the chip asleep with every setting at its default, whatever ran before.
      await d.writeRegister(BME280_REG.reset, BME280_RESET_WORD);
      await waitForNvmCopy(d, options.clock);
      const a = await d.readRegisters(BME280_REG.calibA, BME280_CALIB_A_LENGTH);
      const b = await d.readRegisters(BME280_REG.calibB, BME280_CALIB_B_LENGTH);
      const calibration = parseBme280Calibration(a, b);
      checkBme280Calibration(calibration);
      // Filter off, as the datasheet's weather-monitoring case (§3.5.1); config is writable only asleep.
      await d.writeRegister(BME280_REG.config, 0x00);
      return calibration;
    });
    return new Bme280Sensor(device, options.clock, probed);
  }

  read(): Promise<Bme280Reading> {
    const d = this.#device;
    return d.exclusive(async () => {
      // ctrl_hum takes effect only with the next ctrl_meas write (§5.4.3); both are written every time
      // so a chip that browned out and reset to "humidity skipped" is set up again.
      await d.writeRegister(BME280_REG.ctrlHum, SETTINGS.osrsH);
      await d.writeRegister(BME280_REG.ctrlMeas, ctrlMeasForced(SETTINGS));
      await delay(this.#clock, MEASUREMENT_MS);
      const [status] = await d.readRegisters(BME280_REG.status, 1);
      if (status! & BME280_STATUS_MEASURING) {
        throw new SensorReadError(d.sensor, `still measuring after ${MEASUREMENT_MS} ms, the datasheet's maximum`);
      }
      return decodeBme280(await d.readRegisters(BME280_REG.data, 8), this.calibration, d.sensor);
    });
  }

  close(): Promise<void> {
    return this.#device.exclusive(() => this.#device.close());
  }
}

async function waitForNvmCopy(d: I2cDevice, clock: Clock): Promise<void> {
  for (let i = 0; i < STARTUP_POLLS; i++) {
    await delay(clock, BME280_STARTUP_MS);
    const [status] = await d.readRegisters(BME280_REG.status, 1);
    if (!(status! & BME280_STATUS_IM_UPDATE)) return;
  }
  throw new Error(`the NVM copy did not finish within ${STARTUP_POLLS * BME280_STARTUP_MS} ms of the reset`);
}
