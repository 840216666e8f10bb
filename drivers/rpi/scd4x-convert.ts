import { SensorReadError } from '../types.ts';
import { sensirionWords } from './sensirion-crc.ts';

/*
 * Sensirion SCD4x datasheet (SCD40/SCD41): photoacoustic CO2 with an on-board SHT4x-class humidity
 * and temperature sensor. One fixed address (§3.1 "I2C interface"). Commands are 16-bit, sent MSB
 * first; answers are words with a Sensirion CRC each (§3.11). Execution times from §3.5 Table 9.
 */
export const SCD4X_ADDRESS = 0x62;

export interface Scd4xCommand {
  bytes: readonly [number, number];
  /** Wait before the answer may be read, or before the next command (datasheet execution time). */
  executionMs: number;
}

export const SCD4X = {
  /** Measures every 5 s from here on (§3.5.1). */
  startPeriodicMeasurement: { bytes: [0x21, 0xb1], executionMs: 0 },
  /** 3 words: CO2 ppm, T, RH (§3.5.2); NACKed when there is no new measurement. */
  readMeasurement: { bytes: [0xec, 0x05], executionMs: 1 },
  /** Back to idle; the chip answers nothing else for 500 ms (§3.5.3). */
  stopPeriodicMeasurement: { bytes: [0x3f, 0x86], executionMs: 500 },
  /** 1 word; its 11 least significant bits are 0 when no new measurement is ready (§3.8.2). */
  getDataReadyStatus: { bytes: [0xe4, 0xb8], executionMs: 1 },
  /** 3 words, idle mode only (§3.8.3): read at open to prove a chip answers. */
  getSerialNumber: { bytes: [0x36, 0x82], executionMs: 1 },
} as const satisfies Record<string, Scd4xCommand>;

/** Periodic measurement's signal update interval (§3.5.1): a new value every 5 s, no sooner. */
export const SCD4X_PERIOD_MS = 5000;
/** Output range of the CO2 signal (§1.1 "CO2 Sensor Specifications"): 0..40 000 ppm. */
const CO2_MAX_PPM = 40000;

export interface Scd4xValues {
  co2Ppm: number;
  temperatureC: number;
  humidityPct: number;
}

/** §3.5.2: T = -45 + 175·word/(2^16 - 1) °C. */
export function scd4xTemperatureC(word: number): number {
  return -45 + (175 * word) / 65535;
}

/** §3.5.2: RH = 100·word/(2^16 - 1) %. */
export function scd4xHumidityPct(word: number): number {
  return (100 * word) / 65535;
}

/** The 9 bytes of read_measurement; a bad CRC or a CO2 value outside the output range throws. */
export function decodeScd4xMeasurement(bytes: ArrayLike<number>, sensor: string): Scd4xValues {
  const [co2Ppm, t, rh] = sensirionWords(bytes, 3, sensor) as [number, number, number];
  if (co2Ppm > CO2_MAX_PPM) throw new SensorReadError(sensor, `CO2 ${co2Ppm} ppm outside the SCD4x output range 0..${CO2_MAX_PPM} ppm`);
  return { co2Ppm, temperatureC: scd4xTemperatureC(t), humidityPct: scd4xHumidityPct(rh) };
}

/** §3.8.2: data ready unless the 11 least significant bits of the status word are all 0. */
export function scd4xDataReady(statusWord: number): boolean {
  return (statusWord & 0x07ff) !== 0;
}

/** The 48-bit serial number from get_serial_number's three words. */
export function scd4xSerialNumber(words: ReadonlyArray<number>): number {
  return words.reduce((serial, w) => serial * 0x10000 + w, 0);
}
