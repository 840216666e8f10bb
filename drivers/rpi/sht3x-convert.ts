import { SensorReadError } from '../types.ts';
import { sensirionWords } from './sensirion-crc.ts';

/*
 * Sensirion SHT3x-DIS datasheet (SHT30/31/35). Addresses: 0x44 with ADDR low, 0x45 with ADDR high
 * (§3.1, "I2C device addresses").
 */
export const SHT3X_ADDRESSES = [0x44, 0x45] as const;
/**
 * Single shot, high repeatability, clock stretching disabled (§4.3, "Measurement Commands for Single
 * Shot Data Acquisition Mode"): the Pi's I2C controller mishandles clock stretching, so we wait out the
 * measurement and then read (a read before it ends is NACKed, which fails that read only).
 */
export const SHT3X_MEASURE_HIGH_REPEATABILITY = [0x24, 0x00] as const;
/** Longest measurement at high repeatability (§2.2 "Timing Specification": t_MEAS,h max 15 ms), plus 1 ms. */
export const SHT3X_MEASUREMENT_MS = 16;
/** Read Out of Status Register (§4.11, "Status Register"): one word with CRC, proves a chip answers. */
export const SHT3X_READ_STATUS = [0xf3, 0x2d] as const;

export interface Sht3xReading {
  temperatureC: number;
  humidityPct: number;
}

/** §4.13 "Conversion of Signal Output": T = -45 + 175·S_T/(2^16 - 1) °C. */
export function sht3xTemperatureC(rawT: number): number {
  return -45 + (175 * rawT) / 65535;
}

/** §4.13: RH = 100·S_RH/(2^16 - 1) %. */
export function sht3xHumidityPct(rawRh: number): number {
  return (100 * rawRh) / 65535;
}

/** The 6 bytes of a measurement (T MSB, LSB, CRC, RH MSB, LSB, CRC; §4.3); a bad CRC throws. */
export function decodeSht3x(bytes: ArrayLike<number>, sensor: string): Sht3xReading {
  const [rawT, rawRh] = sensirionWords(bytes, 2, sensor) as [number, number];
  return { temperatureC: sht3xTemperatureC(rawT), humidityPct: sht3xHumidityPct(rawRh) };
}

/**
 * The SHT3x measures -40..125 °C (§2.2 "Temperature Sensor Specification"). Raw 0x0000 (-45 °C) and
 * 0xFFFF (130 °C) with valid CRCs are what a chip stuck in reset gives, not weather.
 */
export function checkSht3xPlausible(reading: Sht3xReading, sensor: string): Sht3xReading {
  if (reading.temperatureC < -40 || reading.temperatureC > 125) {
    throw new SensorReadError(sensor, `temperature ${reading.temperatureC.toFixed(2)} °C outside the SHT3x range -40..125 °C`);
  }
  return reading;
}

/**
 * Break (§4.8, "Stop Periodic Data Acquisition Mode"): a chip left in periodic mode by another program
 * ignores single-shot commands; after it the chip is idle within 1 ms.
 */
export const SHT3X_BREAK = [0x30, 0x93] as const;
export const SHT3X_BREAK_MS = 1;
