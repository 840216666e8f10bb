/*
 * HC-SR04 datasheet (Elec Freaks HC-SR04 Ultrasonic Ranging Module): trigger with a >= 10 µs high
 * pulse; the echo pulse width is the round-trip time; range 2-400 cm; a "measurement cycle over 60 ms"
 * is recommended so the previous echo has died down; with no obstacle the echo stays high ~38 ms.
 */
export const HCSR04_TRIGGER_PULSE_US = 10;
export const HCSR04_MIN_CYCLE_MS = 60;
export const HCSR04_NO_ECHO_US = 38_000;
/** Speed of sound in dry air at 20 °C. */
export const SPEED_OF_SOUND_20C_M_S = 343;

/** Speed of sound in air: 331.3 m/s at 0 °C plus 0.606 m/s per °C (linearised ideal-gas relation). */
export function speedOfSoundMs(temperatureC?: number | null): number {
  return temperatureC == null || !Number.isFinite(temperatureC) ? SPEED_OF_SOUND_20C_M_S : 331.3 + 0.606 * temperatureC;
}

/** Echo pulse width (round trip) to one-way distance. */
export function distanceCmFromEchoUs(echoUs: number, temperatureC?: number | null): number {
  if (!(echoUs >= 0) || !Number.isFinite(echoUs)) throw new RangeError(`echo width must be >= 0 µs, got ${echoUs}`);
  const cmPerUs = speedOfSoundMs(temperatureC) / 10_000; // m/s -> cm/µs
  return (echoUs * cmPerUs) / 2;
}

/** Inverse of distanceCmFromEchoUs (the simulator produces echo widths through it). */
export function echoUsFromDistanceCm(distanceCm: number, temperatureC?: number | null): number {
  return (2 * distanceCm) / (speedOfSoundMs(temperatureC) / 10_000);
}

/** The sensor hangs over the tank looking down: level = depth - distance, clamped to 0..depth. */
export function waterLevelCm(tankDepthCm: number, distanceCm: number): number {
  if (!(tankDepthCm > 0)) throw new RangeError(`tankDepthCm must be > 0, got ${tankDepthCm}`);
  return Math.min(tankDepthCm, Math.max(0, tankDepthCm - distanceCm));
}

/** Median of the pings; with an even count, the mean of the middle two. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** pigpio ticks are unsigned 32-bit microseconds that wrap every ~72 min; subtract modulo 2^32. */
export function echoWidthUs(startTick: number, endTick: number): number {
  return (endTick - startTick) >>> 0;
}
