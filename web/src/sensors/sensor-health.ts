// Sensor truth: one verdict per sensor that every screen uses (the Overview's cards and Environmental
// Status, the Sensors cards and details, the Devices screen), so a dead sensor looks dead everywhere at
// once and no value, colour or "Optimal" is drawn from a reading that is no longer true.
//
// A sensor is
//   'fault'   when the gateway says so: its latest reading's status is 'fault', or a SENSOR_FAULT /
//             SENSOR_STUCK alert for it is active;
//   'stale'   when its latest reading's status is 'stale', or the reading is older than three sampling
//             intervals (a sensor silent for three intervals is lost: README.md, "What it does") plus
//             one dashboard poll, since between polls this browser cannot know better;
//   'offline' when it never answered; 'online' otherwise.
import type { Alert } from '../../../server/contract/alert.ts';
import type { Reading, SensorType } from '../../../server/contract/reading.ts';
import { formatClock, formatRelativeTime } from '../format.ts';

export type SensorHealthState = 'online' | 'stale' | 'fault' | 'offline';

export interface SensorHealth {
  state: SensorHealthState;
  /** When the newest reading was taken, if there is one. */
  lastReadingAt: string | null;
}

/** The dashboard's poll period (api/queries.ts POLL_INTERVAL_MS): the most a shown reading can lag. */
const POLL_SLACK_MS = 15_000;
/** Spec section 9: a reading older than 5 minutes is stale whatever the interval. */
const STALE_CAP_MS = 5 * 60_000;
const FAULT_ALERTS = new Set(['SENSOR_FAULT', 'SENSOR_STUCK']);

/** The status the gateway may put on a latest reading (sensor instances: 'ok' | 'stale' | 'fault'). */
type ReadingWithStatus = Reading & { status?: string };

export function staleAfterMs(updateIntervalS: number | undefined): number {
  if (!updateIntervalS) return STALE_CAP_MS;
  return Math.min(STALE_CAP_MS, 3 * updateIntervalS * 1000 + POLL_SLACK_MS);
}

export function sensorHealth(
  sensorType: SensorType,
  reading: Reading | undefined,
  activeAlerts: readonly Alert[] | undefined,
  updateIntervalS: number | undefined,
  nowMs: number,
): SensorHealth {
  const faultAlert = (activeAlerts ?? []).some((a) => !a.isResolved && FAULT_ALERTS.has(a.alertType) && a.deviceId === sensorType);
  const status = (reading as ReadingWithStatus | undefined)?.status;
  const lastReadingAt = reading?.timestamp ?? null;
  if (faultAlert || status === 'fault') return { state: 'fault', lastReadingAt };
  if (!reading) return { state: 'offline', lastReadingAt };
  if (status === 'stale' || status === 'warning' || nowMs - Date.parse(reading.timestamp) > staleAfterMs(updateIntervalS)) {
    return { state: 'stale', lastReadingAt };
  }
  return { state: 'online', lastReadingAt };
}

/** Whether a value may be shown and judged: only from a sensor that is online. */
export const isTrusted = (health: SensorHealth | undefined) => health?.state === 'online';

/** 'Sensor fault' / 'No reading', the word a card shows instead of a value. */
export function healthWord(state: SensorHealthState): string {
  switch (state) {
    case 'fault':
      return 'Sensor fault';
    case 'stale':
      return 'No reading';
    case 'offline':
      return 'No data';
    default:
      return 'Online';
  }
}

/** 'Last reading 02:14 (12 minutes ago)', or 'Never read'. */
export function lastReadingWords(health: SensorHealth, nowMs: number): string {
  if (!health.lastReadingAt) return 'Never read';
  return `Last reading ${formatClock(Date.parse(health.lastReadingAt))} (${formatRelativeTime(health.lastReadingAt, nowMs)})`;
}
