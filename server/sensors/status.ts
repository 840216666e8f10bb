import { STALE_AFTER_MS, type SensorStatus } from '../contract/reading.ts';

/** Spec section 3: offline when never read, warning when the last reading is older than 5 minutes. */
export function sensorStatus(lastReadingAtMs: number | null, nowMs: number): SensorStatus {
  if (lastReadingAtMs === null) return 'offline';
  return nowMs - lastReadingAtMs > STALE_AFTER_MS ? 'warning' : 'online';
}
