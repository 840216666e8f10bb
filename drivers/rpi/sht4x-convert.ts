import { SensorReadError } from '../types.ts';
import { sensirionWords } from './sensirion-crc.ts';

/*
 * Sensirion SHT4x datasheet (SHT40/41/43/45). The address is fixed by the order code (§5.1 "I2C
 * Communication"): 0x44 for the common -AD1B parts, 0x45 and 0x46 for the -B and -C variants.
 */
export const SHT4X_ADDRESSES = [0x44, 0x45, 0x46] as const;
/** Measure T & RH with high precision (§4.5 "Command Overview"): 0xFD, answered by 6 bytes. */
export const SHT4X_MEASURE_HIGH_PRECISION = [0xfd] as const;
/** Longest high-precision measurement (§2.3 "Timing Specifications": max 8.3 ms), rounded up. */
export const SHT4X_MEASUREMENT_MS = 9;
/** Read serial number (§4.5): two words with CRCs, read once at open to prove a chip answers. */
export const SHT4X_READ_SERIAL = [0x89] as const;
/** The serial number is ready within the 1 ms a command takes (§2.3). */
export const SHT4X_COMMAND_MS = 1;

export interface Sht4xReading {
  temperatureC: number;
  humidityPct: number;
}

/** §4.6 "Conversion of Signal Output": T = -45 + 175·S_T/(2^16 - 1) °C. */
export function sht4xTemperatureC(rawT: number): number {
  return -45 + (175 * rawT) / 65535;
}

/**
 * §4.6: RH = -6 + 125·S_RH/(2^16 - 1) %, and the datasheet says to crop the result to 0..100 %RH
 * (the stretched scale runs from -6 to 119 so that the ends are reachable).
 */
export function sht4xHumidityPct(rawRh: number): number {
  const pct = -6 + (125 * rawRh) / 65535;
  return Math.min(100, Math.max(0, pct));
}

/** The 6 bytes of a measurement (T MSB, LSB, CRC, RH MSB, LSB, CRC); a bad CRC throws. */
export function decodeSht4x(bytes: ArrayLike<number>, sensor: string): Sht4xReading {
  const [rawT, rawRh] = sensirionWords(bytes, 2, sensor) as [number, number];
  const reading = { temperatureC: sht4xTemperatureC(rawT), humidityPct: sht4xHumidityPct(rawRh) };
  // Specified -40..125 °C (§2.2); raw 0x0000 / 0xFFFF with good CRCs are a chip in reset, not weather.
  if (reading.temperatureC < -40 || reading.temperatureC > 125) {
    throw new SensorReadError(sensor, `temperature ${reading.temperatureC.toFixed(2)} °C outside the SHT4x range -40..125 °C`);
  }
  return reading;
}
