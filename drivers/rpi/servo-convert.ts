/*
 * pigpio servoWrite accepts 0 (off) or 500-2500 µs (pigpio doc, gpio.md "servoWrite"); hobby servos
 * such as the SG90 datasheet's 1-2 ms nominal range sit inside it.
 */
export const SERVO_MIN_PULSE_US = 500;
export const SERVO_MAX_PULSE_US = 2500;

export interface ServoPulses {
  openPulseUs: number;
  closedPulseUs: number;
}

export function validatePulseUs(name: string, pulseUs: number): number {
  if (!Number.isInteger(pulseUs) || pulseUs < SERVO_MIN_PULSE_US || pulseUs > SERVO_MAX_PULSE_US) {
    throw new RangeError(`${name} must be an integer ${SERVO_MIN_PULSE_US}-${SERVO_MAX_PULSE_US} µs, got ${pulseUs}`);
  }
  return pulseUs;
}

export function pulseFor(open: boolean, pulses: ServoPulses): number {
  return open
    ? validatePulseUs('openPulseUs', pulses.openPulseUs)
    : validatePulseUs('closedPulseUs', pulses.closedPulseUs);
}

/** The pulse for an opening of `pct` % (0 closed, 100 open), linear between the two configured pulses. */
export function pulseForOpenPct(pct: number, pulses: ServoPulses): number {
  if (!Number.isFinite(pct) || pct < 0 || pct > 100) throw new RangeError(`openPct must be 0-100, got ${pct}`);
  const { openPulseUs, closedPulseUs } = pulses;
  return validatePulseUs('pulse', Math.round(closedPulseUs + ((openPulseUs - closedPulseUs) * pct) / 100));
}
