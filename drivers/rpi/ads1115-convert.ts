/*
 * ADS1115 datasheet (TI SBAS444D, §9.3.3 "Full-Scale Range (FSR) and LSB Size"): 16-bit two's
 * complement, so a single-ended input spans 0..32767 counts over the programmed FSR.
 */
export const ADS1115_MAX_COUNT = 32767;
/**
 * PGA setting in mV. ±4.096 V is the smallest FSR that covers a 3.3 V supply (datasheet Table 3);
 * ±2.048 V would clip the divider near the rail.
 */
export const ADS1115_PGA_MV = 4096;

/**
 * The ads1x15 package answers in millivolts (counts · pga / 32768, its formatResult); calibration is in
 * raw counts, so undo that scaling. Negative results (input slightly below ground) count as 0.
 */
export function rawFromMillivolts(millivolts: number, pgaMv = ADS1115_PGA_MV): number {
  if (!Number.isFinite(millivolts)) throw new RangeError(`ADC answer must be a number of mV, got ${millivolts}`);
  const raw = Math.round((millivolts * 32768) / pgaMv);
  return Math.min(ADS1115_MAX_COUNT, Math.max(0, raw));
}

export interface SoilCalibration {
  /** Counts in dry air (capacitive probes read higher when dry). */
  dryRaw: number;
  /** Counts in water. */
  wetRaw: number;
}

/** Linear between the two calibration points, clamped to 0-100 %. Works for either order of dry/wet. */
export function soilPercentFromRaw(raw: number, { dryRaw, wetRaw }: SoilCalibration): number {
  if (dryRaw === wetRaw) throw new RangeError(`soil calibration needs dryRaw != wetRaw, both are ${dryRaw}`);
  const pct = ((raw - dryRaw) / (wetRaw - dryRaw)) * 100;
  return Math.min(100, Math.max(0, pct));
}

/** Inverse of soilPercentFromRaw (the simulator produces counts through it). */
export function rawFromSoilPercent(pct: number, { dryRaw, wetRaw }: SoilCalibration): number {
  return dryRaw + ((wetRaw - dryRaw) * Math.min(100, Math.max(0, pct))) / 100;
}

export type LightCurve = ReadonlyArray<readonly [number, number]>;

function sortedCurve(curve: LightCurve): Array<readonly [number, number]> {
  if (curve.length < 2) throw new RangeError(`light curve needs at least 2 [raw, lux] points, got ${curve.length}`);
  const points = [...curve].sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < points.length; i++) {
    const [raw, lux] = points[i]!;
    if (!(lux > 0)) throw new RangeError(`light curve lux must be > 0 for log interpolation, got ${lux} at raw ${raw}`);
    if (i > 0 && raw === points[i - 1]![0]) throw new RangeError(`light curve has two points at raw ${raw}`);
  }
  return points;
}

/**
 * An LDR in a divider gives counts roughly linear in log(lux) (its resistance follows a power law of
 * illuminance), so interpolate log(lux) linearly between the calibration points; clamp at the ends
 * rather than extrapolate a power law beyond where it was measured.
 */
export function luxFromRaw(raw: number, curve: LightCurve): number {
  const points = sortedCurve(curve);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (raw <= first[0]) return first[1];
  if (raw >= last[0]) return last[1];
  for (let i = 1; i < points.length; i++) {
    const [r1, l1] = points[i]!;
    if (raw <= r1) {
      const [r0, l0] = points[i - 1]!;
      const f = (raw - r0) / (r1 - r0);
      return Math.exp(Math.log(l0) + f * (Math.log(l1) - Math.log(l0)));
    }
  }
  return last[1];
}

/** Inverse of luxFromRaw for a monotonic curve (the simulator turns true lux into counts with it). */
export function rawFromLux(lux: number, curve: LightCurve): number {
  const points = sortedCurve(curve);
  const increasing = points[points.length - 1]![1] > points[0]![1];
  const byLux = increasing ? points : [...points].reverse();
  for (let i = 1; i < byLux.length; i++) {
    if (byLux[i]![1] <= byLux[i - 1]![1]) throw new RangeError('light curve lux must be monotonic to invert');
  }
  const lo = byLux[0]!;
  const hi = byLux[byLux.length - 1]!;
  if (lux <= lo[1]) return lo[0];
  if (lux >= hi[1]) return hi[0];
  for (let i = 1; i < byLux.length; i++) {
    const [r1, l1] = byLux[i]!;
    if (lux <= l1) {
      const [r0, l0] = byLux[i - 1]!;
      const f = (Math.log(lux) - Math.log(l0)) / (Math.log(l1) - Math.log(l0));
      return r0 + f * (r1 - r0);
    }
  }
  return hi[0];
}
