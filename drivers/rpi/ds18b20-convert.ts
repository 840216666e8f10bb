import { SensorReadError } from '../types.ts';

/*
 * Maxim (Analog Devices) DS18B20 datasheet, read through the Linux kernel's w1-therm driver, which
 * runs the conversion and prints the scratchpad in /sys/bus/w1/devices/28-<serial>/w1_slave:
 *
 *   72 01 4b 46 7f ff 0e 10 57 : crc=57 YES
 *   72 01 4b 46 7f ff 0e 10 57 t=23125
 *
 * (the 9 scratchpad bytes, the kernel's CRC verdict, then the temperature in m°C).
 */

/** 1-Wire family code 0x28 and the 48-bit serial as the kernel names the device (12 hex digits). */
const W1_ID = /^28-[0-9a-f]{12}$/;

/** The kernel's directory name for a DS18B20 id; a RangeError names anything else. */
export function checkDs18b20Id(id: string): string {
  const lower = typeof id === 'string' ? id.toLowerCase() : '';
  if (!W1_ID.test(lower)) {
    throw new RangeError(`DS18B20 1-Wire id must be "28-" followed by 12 hex digits (as in /sys/bus/w1/devices), got ${JSON.stringify(id)}`);
  }
  return lower;
}

/** Conversion time at 12-bit resolution, the power-on default (datasheet, tCONV max 750 ms). */
export const DS18B20_CONVERSION_MS = 750;

/**
 * The Dallas/Maxim 1-Wire CRC-8 (datasheet "CRC Generation"; Maxim application note 27): polynomial
 * x^8 + x^5 + x^4 + 1 (0x31) shifted LSB first, i.e. 0x8C reflected, initial value 0. Over a block
 * that ends with its own CRC the result is 0.
 */
export function maximCrc8(bytes: ArrayLike<number>): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) {
    let byte = bytes[i]! & 0xff;
    for (let bit = 0; bit < 8; bit++) {
      const mix = (crc ^ byte) & 0x01;
      crc >>= 1;
      if (mix) crc ^= 0x8c;
      byte >>= 1;
    }
  }
  return crc;
}

/**
 * Temperature from scratchpad bytes 0 (LSB) and 1 (MSB): a sign-extended 16-bit value in 1/16 °C
 * (datasheet "Temperature Register Format", Table 1). Below 12 bits the lowest bits are undefined and
 * masked off: 9 bits (config R1R0 = 00) leave 1/2 °C steps.
 */
export function ds18b20TemperatureC(lsb: number, msb: number, config = 0x7f): number {
  const resolutionBits = 9 + ((config >> 5) & 0b11);
  const undefinedBits = 12 - resolutionBits;
  const raw = ((((msb & 0xff) << 8) | (lsb & 0xff)) << 16) >> 16;
  return (raw & ~((1 << undefinedBits) - 1)) / 16;
}

/** The power-on reset value of the temperature register (datasheet: +85 °C, 0x0550). */
const POWER_ON_RESET_C = 85;
/** What a lost sensor reads back as in common 1-Wire libraries (DallasTemperature's DEVICE_DISCONNECTED_C). */
const DISCONNECTED_C = -127;
/** Measuring range (datasheet, "Features"): -55 °C to +125 °C. */
const RANGE_C = { min: -55, max: 125 } as const;
/** Consistency of the kernel's t= with the bytes it printed: one 9-bit step. */
const AGREEMENT_C = 0.5;

/**
 * Root-zone temperature from the text of w1_slave. Every way the file says "no measurement" is a
 * failed read, never a value: the kernel's CRC verdict NO, a CRC that does not match the bytes, a
 * scratchpad of all zeros (a data line held low passes the kernel's CRC: CRC-8 of zeros is 0), the
 * power-on 85 °C (the conversion did not run: a power glitch or a weak parasite supply), -127 and
 * anything outside the measuring range.
 */
export function decodeW1Slave(text: string, sensor: string): number {
  const fail = (why: string): never => {
    throw new SensorReadError(sensor, why);
  };
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length < 2) fail(`w1_slave has ${lines.length} line(s), expected 2`);
  const first = /^((?:[0-9a-f]{2} ){9}): crc=([0-9a-f]{2}) (YES|NO)$/i.exec(lines[0]!);
  const second = /^((?:[0-9a-f]{2} ){9})t=(-?\d+)$/i.exec(lines[1]!);
  if (!first || !second) return fail(`w1_slave is not in the w1-therm format: ${JSON.stringify(text.slice(0, 120))}`);
  if (first[3]!.toUpperCase() !== 'YES') fail(`the 1-Wire CRC check failed (crc=${first[2]} NO): a noisy or too long cable`);
  const bytes = first[1]!.trim().split(' ').map((h) => parseInt(h, 16));
  if (maximCrc8(bytes.slice(0, 8)) !== bytes[8]) fail(`scratchpad CRC 0x${bytes[8]!.toString(16)} does not match its bytes`);
  // Byte 4 is the configuration register: 0 R1 R0 1 1 1 1 1 (datasheet "Configuration Register").
  if ((bytes[4]! & 0x9f) !== 0x1f) fail(`scratchpad configuration byte 0x${bytes[4]!.toString(16)} is not a DS18B20's (data line held low or floating?)`);
  const fromBytesC = ds18b20TemperatureC(bytes[0]!, bytes[1]!, bytes[4]!);
  const kernelC = Number(second[2]) / 1000;
  if (kernelC === POWER_ON_RESET_C) fail('85 °C is the power-on reset value: the conversion did not run (power glitch or weak parasite supply)');
  if (kernelC === DISCONNECTED_C) fail('-127 °C: the sensor did not answer');
  if (kernelC < RANGE_C.min || kernelC > RANGE_C.max) fail(`${kernelC} °C is outside the DS18B20 range ${RANGE_C.min}..${RANGE_C.max} °C`);
  if (Math.abs(kernelC - fromBytesC) > AGREEMENT_C) fail(`t=${second[2]} does not match the scratchpad (${fromBytesC} °C)`);
  return kernelC;
}
