import { monotonicMs, type Clock, type MonotonicMs } from '../../common/clock.ts';
import { delay } from '../../common/delay.ts';
import { SensorReadError } from '../types.ts';
import { checkAddress, checkBusNumber, openProbed, type I2cDevice } from './i2c-device.ts';
import type { I2cBusModule } from './native.ts';
import {
  decodeScd4xMeasurement,
  SCD4X,
  SCD4X_ADDRESS,
  SCD4X_PERIOD_MS,
  scd4xDataReady,
  scd4xSerialNumber,
  type Scd4xCommand,
  type Scd4xValues,
} from './scd4x-convert.ts';
import { sensirionWords } from './sensirion-crc.ts';

export interface Scd4xOptions {
  i2c: I2cBusModule;
  bus: number;
  address?: number;
  clock: Clock;
  /** The age of the last measurement is kept on this (default performance.now), never on the wall clock. */
  monotonicMs?: MonotonicMs;
  /** Names the sensor in read errors (its sensorId). */
  sensor?: string;
}

export interface Scd4xResult {
  values: Scd4xValues;
  /** False when no measurement has arrived since the last read: the values are the previous ones. */
  isNew: boolean;
  /** How long ago the chip delivered `values`. */
  ageMs: number;
}

/**
 * Past three missed periods the chip has stopped measuring (a brown-out resets it to idle): its last
 * value is then history, not a reading, and reads fail until measurements resume.
 */
const MAX_AGE_MS = 3 * SCD4X_PERIOD_MS;

/**
 * SCD40/SCD41 in periodic measurement: started at open, a new CO2/T/RH value every 5 s, stopped at
 * close. A read between two measurements answers the last one flagged as not new.
 */
export class Scd4xSensor {
  readonly #device: I2cDevice;
  readonly #clock: Clock;
  readonly #elapsedMs: MonotonicMs;
  readonly serialNumber: number;
  #last: { values: Scd4xValues; atMs: number } | null = null;
  readonly #startedAtMs: number;

  private constructor(device: I2cDevice, clock: Clock, elapsedMs: MonotonicMs, serialNumber: number) {
    this.#device = device;
    this.#clock = clock;
    this.#elapsedMs = elapsedMs;
    this.serialNumber = serialNumber;
    this.#startedAtMs = elapsedMs();
  }

  static async open(options: Scd4xOptions): Promise<Scd4xSensor> {
    const address = options.address ?? SCD4X_ADDRESS;
    checkBusNumber('SCD4X', options.bus);
    checkAddress('SCD4X', address, [SCD4X_ADDRESS]);
    const sensor = options.sensor ?? 'SCD4X';
    const { clock } = options;
    const { device, probed } = await openProbed({ ...options, address, sensor, chip: 'SCD4X' }, async (d) => {
      // A chip left measuring by an earlier run (it keeps its own power) refuses every idle-mode
      // command: stop it first (harmless when idle), then prove it is there by its serial number.
      await send(d, clock, SCD4X.stopPeriodicMeasurement);
      await send(d, clock, SCD4X.getSerialNumber);
      const serial = scd4xSerialNumber(sensirionWords(await d.read(9), 3, sensor));
      await send(d, clock, SCD4X.startPeriodicMeasurement);
      return serial;
    });
    return new Scd4xSensor(device, clock, options.monotonicMs ?? monotonicMs, probed);
  }

  read(): Promise<Scd4xResult> {
    const d = this.#device;
    return d.exclusive(async () => {
      await send(d, this.#clock, SCD4X.getDataReadyStatus);
      const [status] = sensirionWords(await d.read(3), 1, d.sensor) as [number];
      const nowMs = this.#elapsedMs();
      if (scd4xDataReady(status)) {
        await send(d, this.#clock, SCD4X.readMeasurement);
        const values = decodeScd4xMeasurement(await d.read(9), d.sensor);
        this.#last = { values, atMs: nowMs };
        return { values, isNew: true, ageMs: 0 };
      }
      if (!this.#last) {
        const sinceStartMs = nowMs - this.#startedAtMs;
        if (sinceStartMs <= MAX_AGE_MS) throw new SensorReadError(d.sensor, `no measurement yet (the first comes ${SCD4X_PERIOD_MS / 1000} s after start)`);
        throw new SensorReadError(d.sensor, `no measurement ${Math.round(sinceStartMs / 1000)} s after start`);
      }
      const ageMs = nowMs - this.#last.atMs;
      if (ageMs > MAX_AGE_MS) throw new SensorReadError(d.sensor, `no new measurement for ${Math.round(ageMs / 1000)} s (one is due every ${SCD4X_PERIOD_MS / 1000} s)`);
      return { values: this.#last.values, isNew: false, ageMs };
    });
  }

  /** Stops periodic measurement, then closes the bus (even when the chip does not answer the stop). */
  close(): Promise<void> {
    const d = this.#device;
    return d.exclusive(async () => {
      let stopError: unknown = null;
      try {
        await d.write(SCD4X.stopPeriodicMeasurement.bytes);
      } catch (err) {
        stopError = err;
      }
      await d.close();
      if (stopError) throw new Error(`SCD4X ${d.sensor}: could not stop periodic measurement`, { cause: stopError });
    });
  }
}

async function send(d: I2cDevice, clock: Clock, command: Scd4xCommand): Promise<void> {
  await d.write(command.bytes);
  if (command.executionMs > 0) await delay(clock, command.executionMs);
}
