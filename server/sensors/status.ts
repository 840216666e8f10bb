import { STALE_AFTER_MS, type SensorStatus } from '../contract/reading.ts';

/**
 * A zone's status (docs/sensors.md, zones): fault while every sensor of it is faulted, so no screen
 * draws a value from it; offline when never read; warning when its newest reading is older than
 * 5 minutes.
 */
export function sensorStatus(lastReadingAtMs: number | null, nowMs: number, faulted = false): SensorStatus {
  if (faulted) return 'fault';
  if (lastReadingAtMs === null) return 'offline';
  return nowMs - lastReadingAtMs > STALE_AFTER_MS ? 'warning' : 'online';
}
