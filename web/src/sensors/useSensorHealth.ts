// The sensor verdicts (sensor-health.ts) from the shared queries: latest readings, active alerts and
// the sampling interval. Every screen that shows or judges a reading asks here.
import type { Reading, SensorType } from '../../../server/contract/reading.ts';
import { readingsBySensor, useActiveAlerts, useLatestReadings } from '../api/queries.ts';
import { useGreenhouseSettings } from '../api/settings.ts';
import { useNow } from '../components/useNow.ts';
import { sensorHealth, type SensorHealth } from './sensor-health.ts';

const SENSORS: readonly SensorType[] = ['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL'];

export interface SensorTruth {
  health: Record<SensorType, SensorHealth>;
  bySensor: Partial<Record<SensorType, Reading>>;
  /** The reading of a sensor only while it is online: what may be shown as a value or judged. */
  trusted: Partial<Record<SensorType, Reading>>;
  nowMs: number;
}

export function useSensorHealth(): SensorTruth {
  const bySensor = readingsBySensor(useLatestReadings().data);
  const alerts = useActiveAlerts().data;
  const intervalS = useGreenhouseSettings().data?.systemSettings.updateInterval;
  // Every 5 s, so a silent sensor turns stale on screen within seconds of its limit.
  const nowMs = useNow(5_000);
  const health = {} as Record<SensorType, SensorHealth>;
  const trusted: Partial<Record<SensorType, Reading>> = {};
  for (const type of SENSORS) {
    health[type] = sensorHealth(type, bySensor[type], alerts, intervalS, nowMs);
    if (health[type].state === 'online') trusted[type] = bySensor[type];
  }
  return { health, bySensor, trusted, nowMs };
}
