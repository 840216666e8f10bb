import { SensorReadError } from '../types.ts';

/*
 * The checksum of every Sensirion I2C word (SHT3x-DIS datasheet §4.12 "Checksum Calculation", Table 19;
 * SHT4x datasheet §4.4; SCD4x datasheet §3.11 "Checksum Calculation"): CRC-8, polynomial 0x31
 * (x^8 + x^5 + x^4 + 1), initialisation 0xFF, no reflection, no final XOR. Worked example in all
 * three: CRC(0xBEEF) = 0x92.
 */
const POLYNOMIAL = 0x31;
const INIT = 0xff;

export function sensirionCrc8(bytes: ArrayLike<number>): number {
  let crc = INIT;
  for (let i = 0; i < bytes.length; i++) {
    crc ^= bytes[i]! & 0xff;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x80 ? ((crc << 1) ^ POLYNOMIAL) & 0xff : (crc << 1) & 0xff;
    }
  }
  return crc;
}

/**
 * Splits a Sensirion answer (MSB, LSB, CRC per word) into its 16-bit words. A word whose checksum does
 * not match is a failed read: a flipped bit on a long greenhouse cable must never become a value.
 */
export function sensirionWords(bytes: ArrayLike<number>, wordCount: number, sensor: string): number[] {
  if (bytes.length < wordCount * 3) {
    throw new SensorReadError(sensor, `short answer: ${bytes.length} bytes, expected ${wordCount * 3}`);
  }
  const words: number[] = [];
  for (let i = 0; i < wordCount; i++) {
    const msb = bytes[i * 3]! & 0xff;
    const lsb = bytes[i * 3 + 1]! & 0xff;
    const crc = bytes[i * 3 + 2]! & 0xff;
    const expected = sensirionCrc8([msb, lsb]);
    if (crc !== expected) {
      throw new SensorReadError(sensor, `bad CRC on word ${i} (0x${hex(msb, lsb)}: got 0x${hex(crc)}, expected 0x${hex(expected)})`);
    }
    words.push((msb << 8) | lsb);
  }
  return words;
}

/** The bytes a Sensirion chip sends for `words` (fakes and tests build datasheet answers with it). */
export function sensirionBytes(words: ReadonlyArray<number>): number[] {
  return words.flatMap((w) => {
    const msb = (w >> 8) & 0xff;
    const lsb = w & 0xff;
    return [msb, lsb, sensirionCrc8([msb, lsb])];
  });
}

function hex(...bytes: number[]): string {
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}
