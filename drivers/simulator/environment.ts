/*
 * The weather outside the simulated greenhouse, as pure functions of time. Solar time is UTC so a run
 * is the same on every machine whatever its time zone: the sun rises at 06:00 UTC and sets at 18:00.
 */

export const PEAK_SUN_LUX = 50_000;
const HOUR_MS = 3_600_000;

export function hourOfDayUtc(timeMs: number): number {
  return (((timeMs % (24 * HOUR_MS)) + 24 * HOUR_MS) % (24 * HOUR_MS)) / HOUR_MS;
}

/** 0 at night, 1 at solar noon: a half sine over a 12-hour day. */
export function sunFraction(timeMs: number): number {
  const h = hourOfDayUtc(timeMs);
  return h > 6 && h < 18 ? Math.sin((Math.PI * (h - 6)) / 12) : 0;
}

/** Daily sinusoid: 10 °C at 03:00, 22 °C at 15:00 (the afternoon lag of a real day). */
export function outsideTemperatureC(timeMs: number): number {
  return 16 + 6 * Math.sin((2 * Math.PI * (hourOfDayUtc(timeMs) - 9)) / 24);
}

/**
 * Relative humidity outside runs opposite to temperature: 80 % before dawn, 56 % mid-afternoon. Kept
 * under 90 % so a closed house at night stays inside the DHT11's 20-90 %RH range most of the time.
 */
export function outsideHumidityPct(timeMs: number): number {
  return 68 - 12 * Math.sin((2 * Math.PI * (hourOfDayUtc(timeMs) - 9)) / 24);
}
