import { SensorReadError } from '../types.ts';

/*
 * Bosch BME280 datasheet (BST-BME280-DS002). Register map §5.3, compensation §4.2.3 and §8.1,
 * measurement time §9.1. The pressure and temperature formulas are the BMP280's (BST-BMP280-DS001),
 * whose §3.12 gives the worked example the tests use.
 */

/** SDO to GND: 0x76, SDO to VDDIO: 0x77 (§6.2 "I2C Interface"). */
export const BME280_ADDRESSES = [0x76, 0x77] as const;
/** Register `id` (0xD0) reads 0x60 on a BME280 (§5.4.1); a BMP280, which has no humidity, reads 0x56-0x58. */
export const BME280_CHIP_ID = 0x60;
const BMP280_CHIP_IDS = [0x56, 0x57, 0x58];

export const BME280_REG = {
  chipId: 0xd0,
  /** Writing 0xB6 resets the chip (§5.4.2). */
  reset: 0xe0,
  ctrlHum: 0xf2,
  status: 0xf3,
  ctrlMeas: 0xf4,
  config: 0xf5,
  /** press_msb..hum_lsb, 8 bytes (§5.4.6-5.4.9), read in one burst so they belong to one measurement. */
  data: 0xf7,
  /** calib00..calib25 at 0x88..0xA1 and calib26..calib32 at 0xE1..0xE7 (§5.3, Table 18). */
  calibA: 0x88,
  calibB: 0xe1,
} as const;
export const BME280_RESET_WORD = 0xb6;
/** Start-up time after a power-on or soft reset before the NVM is copied (§1 Table 1, t_startup 2 ms). */
export const BME280_STARTUP_MS = 2;
export const BME280_CALIB_A_LENGTH = 26;
export const BME280_CALIB_B_LENGTH = 7;
/** `status` bits (§5.4.4): a conversion running; the NVM being copied to the image registers. */
export const BME280_STATUS_MEASURING = 0x08;
export const BME280_STATUS_IM_UPDATE = 0x01;

/** Oversampling settings (osrs_x, §5.4.3 and §5.4.5): 0 skips the measurement, 1..5 are x1..x16. */
export type Oversampling = 0 | 1 | 2 | 3 | 4 | 5;
export interface Bme280Settings {
  osrsT: Oversampling;
  osrsP: Oversampling;
  osrsH: Oversampling;
}
/**
 * The datasheet's "weather monitoring" case (§3.5.1): forced mode, x1 everywhere, filter off. A
 * greenhouse reading every few seconds needs nothing more, and one measurement takes under 10 ms.
 */
export const WEATHER_MONITORING: Bme280Settings = { osrsT: 1, osrsP: 1, osrsH: 1 };

/** ctrl_meas: osrs_t[7:5], osrs_p[4:2], mode[1:0]; 0b01 is forced mode (one measurement, then sleep). */
export function ctrlMeasForced(s: Bme280Settings): number {
  return (s.osrsT << 5) | (s.osrsP << 2) | 0b01;
}

function oversamplingFactor(osrs: Oversampling): number {
  return osrs === 0 ? 0 : 2 ** (osrs - 1);
}

/**
 * §9.1 "Measurement time": t_typ = 1 + 2·T_os + (2·P_os + 0.5) + (2·H_os + 0.5) ms and
 * t_max = 1.25 + 2.3·T_os + (2.3·P_os + 0.575) + (2.3·H_os + 0.575) ms, a skipped measurement's term
 * left out.
 */
export function bme280MeasurementTimeMs(s: Bme280Settings): { typMs: number; maxMs: number } {
  const t = oversamplingFactor(s.osrsT);
  const p = oversamplingFactor(s.osrsP);
  const h = oversamplingFactor(s.osrsH);
  const typMs = 1 + (t ? 2 * t : 0) + (p ? 2 * p + 0.5 : 0) + (h ? 2 * h + 0.5 : 0);
  const maxMs = 1.25 + (t ? 2.3 * t : 0) + (p ? 2.3 * p + 0.575 : 0) + (h ? 2.3 * h + 0.575 : 0);
  return { typMs, maxMs };
}

export interface Bme280Calibration {
  digT1: number; digT2: number; digT3: number;
  digP1: number; digP2: number; digP3: number; digP4: number; digP5: number;
  digP6: number; digP7: number; digP8: number; digP9: number;
  digH1: number; digH2: number; digH3: number; digH4: number; digH5: number; digH6: number;
}

const u16 = (b: ArrayLike<number>, i: number) => (b[i]! & 0xff) | ((b[i + 1]! & 0xff) << 8);
const s16 = (b: ArrayLike<number>, i: number) => (u16(b, i) << 16) >> 16;
const s8 = (v: number) => ((v & 0xff) << 24) >> 24;

/**
 * §4.2.2 Table 16 "Compensation parameter storage, naming and data type": little-endian words at
 * 0x88..0x9F, dig_H1 at 0xA1, then dig_H2..dig_H6 at 0xE1..0xE7, where dig_H4 and dig_H5 are 12-bit
 * signed values sharing the nibbles of 0xE5.
 */
export function parseBme280Calibration(a: ArrayLike<number>, b: ArrayLike<number>): Bme280Calibration {
  if (a.length < BME280_CALIB_A_LENGTH || b.length < BME280_CALIB_B_LENGTH) {
    throw new RangeError(`BME280 calibration needs ${BME280_CALIB_A_LENGTH} + ${BME280_CALIB_B_LENGTH} bytes, got ${a.length} + ${b.length}`);
  }
  const e4 = b[3]! & 0xff;
  const e5 = b[4]! & 0xff;
  const e6 = b[5]! & 0xff;
  return {
    digT1: u16(a, 0), digT2: s16(a, 2), digT3: s16(a, 4),
    digP1: u16(a, 6), digP2: s16(a, 8), digP3: s16(a, 10), digP4: s16(a, 12), digP5: s16(a, 14),
    digP6: s16(a, 16), digP7: s16(a, 18), digP8: s16(a, 20), digP9: s16(a, 22),
    digH1: a[25]! & 0xff,
    digH2: s16(b, 0),
    digH3: b[2]! & 0xff,
    digH4: s8(e4) * 16 + (e5 & 0x0f),
    digH5: s8(e6) * 16 + (e5 >> 4),
    digH6: s8(b[6]!),
  };
}

/**
 * An erased or unreadable NVM (all 0x00 or all 0xFF) gives parameters the formulas would divide by or
 * turn into nonsense; dig_T1 and dig_P1 are never 0 or 0xFFFF on a programmed chip.
 */
export function checkBme280Calibration(cal: Bme280Calibration): void {
  for (const [name, value] of [['dig_T1', cal.digT1], ['dig_P1', cal.digP1]] as const) {
    if (value === 0 || value === 0xffff) throw new RangeError(`BME280 calibration ${name} is 0x${value.toString(16)}: the chip's NVM did not read back`);
  }
}

/** §8.1, temperature in double precision: °C, and t_fine (an integer) for pressure and humidity. */
export function bme280Temperature(adcT: number, cal: Bme280Calibration): { temperatureC: number; tFine: number } {
  const var1 = (adcT / 16384 - cal.digT1 / 1024) * cal.digT2;
  const d = adcT / 131072 - cal.digT1 / 8192;
  const var2 = d * d * cal.digT3;
  return { temperatureC: (var1 + var2) / 5120, tFine: Math.trunc(var1 + var2) };
}

/** §8.1, pressure in double precision, in Pa. */
export function bme280PressurePa(adcP: number, tFine: number, cal: Bme280Calibration): number {
  let var1 = tFine / 2 - 64000;
  let var2 = (var1 * var1 * cal.digP6) / 32768;
  var2 = var2 + var1 * cal.digP5 * 2;
  var2 = var2 / 4 + cal.digP4 * 65536;
  var1 = ((cal.digP3 * var1 * var1) / 524288 + cal.digP2 * var1) / 524288;
  var1 = (1 + var1 / 32768) * cal.digP1;
  // The datasheet returns 0 here "to avoid exception caused by division by zero": no pressure at all.
  if (var1 === 0) return Number.NaN;
  let p = 1048576 - adcP;
  p = ((p - var2 / 4096) * 6250) / var1;
  var1 = (cal.digP9 * p * p) / 2147483648;
  var2 = (p * cal.digP8) / 32768;
  return p + (var1 + var2 + cal.digP7) / 16;
}

/** §8.1, relative humidity in double precision, clamped to 0..100 % as the datasheet's code does. */
export function bme280HumidityPct(adcH: number, tFine: number, cal: Bme280Calibration): number {
  let h = tFine - 76800;
  h = (adcH - (cal.digH4 * 64 + (cal.digH5 / 16384) * h)) *
    ((cal.digH2 / 65536) * (1 + (cal.digH6 / 67108864) * h * (1 + (cal.digH3 / 67108864) * h)));
  h = h * (1 - (cal.digH1 * h) / 524288);
  return Math.min(100, Math.max(0, h));
}

export interface Bme280Reading {
  temperatureC: number;
  humidityPct: number;
  pressureHpa: number;
}

/** What a skipped measurement reads back as (§5.4.7-5.4.9): the chip never measured it. */
const SKIPPED_20_BIT = 0x80000;
const SKIPPED_16_BIT = 0x8000;

/** Raw ADC values from the 8 data bytes at 0xF7 (§5.4.7-5.4.9: 20-bit P and T, 16-bit H). */
export function bme280RawValues(bytes: ArrayLike<number>): { adcP: number; adcT: number; adcH: number } {
  const b = (i: number) => bytes[i]! & 0xff;
  return {
    adcP: (b(0) << 12) | (b(1) << 4) | (b(2) >> 4),
    adcT: (b(3) << 12) | (b(4) << 4) | (b(5) >> 4),
    adcH: (b(6) << 8) | b(7),
  };
}

/**
 * A measurement from its 8 raw bytes. Operating range (§1 Table 1): -40..85 °C, 300..1100 hPa; a value
 * outside, or a skipped measurement, is a failed read.
 */
export function decodeBme280(bytes: ArrayLike<number>, cal: Bme280Calibration, sensor: string): Bme280Reading {
  if (bytes.length < 8) throw new SensorReadError(sensor, `short answer: ${bytes.length} of 8 data bytes`);
  const { adcP, adcT, adcH } = bme280RawValues(bytes);
  if (adcT === SKIPPED_20_BIT || adcP === SKIPPED_20_BIT || adcH === SKIPPED_16_BIT) {
    throw new SensorReadError(sensor, 'the BME280 skipped a measurement (it was reset between the command and the read)');
  }
  const { temperatureC, tFine } = bme280Temperature(adcT, cal);
  const pressureHpa = bme280PressurePa(adcP, tFine, cal) / 100;
  const humidityPct = bme280HumidityPct(adcH, tFine, cal);
  if (!(temperatureC >= -40 && temperatureC <= 85)) {
    throw new SensorReadError(sensor, `temperature ${temperatureC.toFixed(2)} °C outside the BME280 range -40..85 °C`);
  }
  if (!(pressureHpa >= 300 && pressureHpa <= 1100)) {
    throw new SensorReadError(sensor, `pressure ${pressureHpa.toFixed(1)} hPa outside the BME280 range 300..1100 hPa`);
  }
  return { temperatureC, humidityPct, pressureHpa };
}

/** A chip id that is not a BME280 says what it is instead, when we know. */
export function describeChipId(id: number): string {
  const hex = `0x${id.toString(16).padStart(2, '0')}`;
  if (BMP280_CHIP_IDS.includes(id)) return `chip id ${hex} is a BMP280 (no humidity sensor), not a BME280 (0x60)`;
  return `chip id ${hex} is not a BME280 (0x60)`;
}
