import type { ManualClock } from '../../../../common/clock.ts';
import type { Bme280Calibration } from '../../../../drivers/rpi/bme280-convert.ts';
import { sensirionBytes } from '../../../../drivers/rpi/sensirion-crc.ts';
import { nack, type FakeI2cChip } from './i2c-fakes.ts';

/*
 * Fake I2C chips that behave as their datasheets describe (timings, modes, NACKs), for the driver
 * shells' tests and the instance opener's.
 */

/** An SHT3x as its datasheet describes it: NACKs a read until the measurement has run its time. */
export function fakeSht3x(clock: ManualClock, answers: Array<number[]>): FakeI2cChip & { measurements: number } {
  let startedAt: number | null = null;
  let lastCommand = '';
  let i = 0;
  const chip = {
    measurements: 0,
    write(bytes: number[]) {
      lastCommand = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
      if (lastCommand === '2400') {
        startedAt = clock.now();
        chip.measurements++;
      }
    },
    read(length: number) {
      if (lastCommand === 'f32d') return sensirionBytes([0x8010]).slice(0, length);
      if (lastCommand !== '2400' || startedAt === null) throw nack();
      if (clock.now() - startedAt < 15) throw nack(); // still measuring (no clock stretching)
      startedAt = null;
      return answers[Math.min(i++, answers.length - 1)]!;
    },
  };
  return chip;
}

/** An SHT4x: 0xFD starts a measurement that NACKs reads for 8.3 ms; 0x89 answers the serial number. */
export function fakeSht4x(clock: ManualClock, answer: number[]): FakeI2cChip {
  let command = 0;
  let startedAt = 0;
  return {
    write(bytes) {
      command = bytes[0]!;
      startedAt = clock.now();
    },
    read(length) {
      if (command === 0x89) return sensirionBytes([0x1234, 0x5678]).slice(0, length);
      if (command !== 0xfd || clock.now() - startedAt < 8.3) throw nack();
      command = 0;
      return answer;
    },
  };
}

/**
 * The BMP280 datasheet's worked example (BST-BMP280-DS001 §3.12, "Calculating pressure and
 * temperature"), with humidity parameters of a real BME280 added (the datasheet has no humidity example).
 */
export const BME280_EXAMPLE: Bme280Calibration = {
  digT1: 27504, digT2: 26435, digT3: -1000,
  digP1: 36477, digP2: -10685, digP3: 3024, digP4: 2855, digP5: 140, digP6: -7, digP7: 15500, digP8: -14600, digP9: 6000,
  digH1: 75, digH2: 362, digH3: 0, digH4: 313, digH5: 50, digH6: 30,
};
export const BME280_ADC_T = 519888;
export const BME280_ADC_P = 415148;

/** Calibration as the chip stores it (Table 16), the inverse of parseBme280Calibration. */
export function calibrationBytes(c: Bme280Calibration): { a: number[]; b: number[] } {
  const le = (v: number) => [v & 0xff, (v >> 8) & 0xff];
  const a = [c.digT1, c.digT2, c.digT3, c.digP1, c.digP2, c.digP3, c.digP4, c.digP5, c.digP6, c.digP7, c.digP8, c.digP9].flatMap(le);
  a.push(0x00, c.digH1); // 0xA0 unused, 0xA1 dig_H1
  const b = [...le(c.digH2), c.digH3, (c.digH4 >> 4) & 0xff, ((c.digH5 & 0x0f) << 4) | (c.digH4 & 0x0f), (c.digH5 >> 4) & 0xff, c.digH6 & 0xff];
  return { a, b };
}

export function dataBytes(adcP: number, adcT: number, adcH: number): number[] {
  const b20 = (v: number) => [(v >> 12) & 0xff, (v >> 4) & 0xff, (v & 0x0f) << 4];
  return [...b20(adcP), ...b20(adcT), (adcH >> 8) & 0xff, adcH & 0xff];
}

/**
 * A BME280 modelled on its register map: soft reset, an NVM copy of 1 ms, forced mode whose measurement
 * runs 9 ms and whose results land in the data registers only at its end (reads in between see the old
 * ones), humidity skipped when ctrl_hum was left at 0.
 */
export function fakeBme280(clock: ManualClock, options: { chipId?: number; adcH?: number } = {}): FakeI2cChip & { measurements: number } {
  const regs = new Array<number>(256).fill(0);
  const { a, b } = calibrationBytes(BME280_EXAMPLE);
  const measuringMs = 9;
  let nvmUntil = 0;
  let measuringUntil = 0;
  let pending: number[] | null = null;
  regs.splice(0xf7, 8, ...dataBytes(0x80000, 0x80000, 0x8000));
  const settleMeasurement = () => {
    if (pending && clock.now() >= measuringUntil) {
      regs.splice(0xf7, 8, ...pending);
      pending = null;
    }
  };
  const chip = {
    measurements: 0,
    readRegisters(register: number, length: number) {
      settleMeasurement();
      if (register === 0xd0) return [options.chipId ?? 0x60];
      if (register === 0x88) return a.slice(0, length);
      if (register === 0xe1) return b.slice(0, length);
      if (register === 0xf3) return [(clock.now() < measuringUntil ? 0x08 : 0) | (clock.now() < nvmUntil ? 0x01 : 0)];
      return regs.slice(register, register + length);
    },
    writeRegister(register: number, value: number) {
      if (register === 0xe0 && value === 0xb6) {
        nvmUntil = clock.now() + 1;
        regs[0xf2] = 0;
        return;
      }
      regs[register] = value;
      if (register === 0xf4 && (value & 0b11) === 0b01) {
        chip.measurements++;
        measuringUntil = clock.now() + measuringMs;
        pending = dataBytes(BME280_ADC_P, BME280_ADC_T, regs[0xf2] ? (options.adcH ?? 30000) : 0x8000);
      }
    },
  };
  return chip;
}

/** read_measurement's example answer in the SCD4x datasheet (§3.5.2): 500 ppm, 25 °C, 37 %RH. */
export const SCD4X_DATASHEET_EXAMPLE = [0x01, 0xf4, 0x33, 0x66, 0x67, 0xa2, 0x5e, 0xb9, 0x3c];

/**
 * An SCD41 as its datasheet describes it: in periodic mode it accepts only the periodic-mode commands
 * (others NACK), a new measurement every 5 s after the start, read_measurement NACKed when none is new,
 * and nothing at all answered for 500 ms after a stop. It starts in periodic mode, left there by an
 * earlier run.
 */
export function fakeScd41(clock: ManualClock, measurements: number[][] = [SCD4X_DATASHEET_EXAMPLE]): FakeI2cChip & { periodic: boolean } {
  let periodicSince: number | null = clock.now() - 60_000;
  let busyUntil = 0;
  let delivered = 0;
  let answer: number[] | null = null;
  const available = () => (periodicSince === null ? 0 : Math.floor((clock.now() - periodicSince) / 5000));
  const chip = {
    get periodic() {
      return periodicSince !== null;
    },
    write(bytes: number[]) {
      if (clock.now() < busyUntil) throw nack();
      const command = (bytes[0]! << 8) | bytes[1]!;
      const periodicOnly = [0xec05, 0xe4b8, 0x3f86];
      if (periodicSince !== null && !periodicOnly.includes(command)) throw nack();
      answer = null;
      switch (command) {
        case 0x3f86:
          periodicSince = null;
          busyUntil = clock.now() + 500;
          delivered = 0;
          return;
        case 0x3682:
          answer = sensirionBytes([0xf896, 0x9f07, 0x3bb2]);
          return;
        case 0x21b1:
          periodicSince = clock.now();
          return;
        case 0xe4b8:
          answer = sensirionBytes([available() > delivered ? 0x8006 : 0x8000]);
          return;
        case 0xec05:
          if (available() <= delivered) throw nack();
          answer = measurements[Math.min(delivered, measurements.length - 1)]!;
          delivered = available();
          return;
        default:
          throw nack();
      }
    },
    read(length: number) {
      if (!answer) throw nack();
      const a = answer.slice(0, length);
      answer = null;
      return a;
    },
  };
  return chip;
}

