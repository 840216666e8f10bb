// TanStack Query hooks for the data the shell loads and every screen reuses.
// Polling: every 15 s, and only when the last fetch is older than 15 s (spec sections 4 and 9) —
// staleTime = refetchInterval = 15 s does exactly that. Realtime events invalidate these keys
// (realtime/event-effects.ts), so screens stay live between polls.
// Load failures are only logged and the screens show empty data (spec section 8).
import { QueryClient, useQuery } from '@tanstack/react-query';
import type { Alert } from '../../../server/contract/alert.ts';
import type { Device } from '../../../server/contract/device.ts';
import type { Reading } from '../../../server/contract/reading.ts';
import { api } from './client.ts';

/** The one greenhouse this appliance serves (spec section 9). */
export const GREENHOUSE_ID = 'greenhouse-001';

export const POLL_INTERVAL_MS = 15_000;

/** Query keys: screens invalidate by prefix, e.g. queryClient.invalidateQueries({ queryKey: queryKeys.devices }). */
export const queryKeys = {
  latestReadings: ['sensors', 'latest', GREENHOUSE_ID] as const,
  devices: ['devices', GREENHOUSE_ID] as const,
  activeAlerts: ['alerts', 'active', GREENHOUSE_ID] as const,
} as const;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: POLL_INTERVAL_MS,
        // One retry smooths over a Wi-Fi blip in the greenhouse; 4xx will not improve on retry.
        retry: (failures, error) => failures < 1 && !(error as { status?: number }).status,
        refetchOnWindowFocus: true,
      },
    },
  });
}

/** Fetch a list; on failure log and answer [] so screens render their empty state (spec section 8). */
async function listOrEmpty<T>(path: string, signal: AbortSignal): Promise<T[]> {
  try {
    const data = await api.get<T[]>(path, { signal });
    return Array.isArray(data) ? data : [];
  } catch (err) {
    if (signal.aborted) throw err;
    console.error(`Failed to load ${path}:`, err);
    return [];
  }
}

const polling = { refetchInterval: POLL_INTERVAL_MS, staleTime: POLL_INTERVAL_MS } as const;

/** Latest reading per sensor type (DHT11, LDR, SOIL_MOISTURE, WATER_LEVEL). */
export function useLatestReadings() {
  return useQuery({
    queryKey: queryKeys.latestReadings,
    queryFn: ({ signal }) => listOrEmpty<Reading>(`/api/sensors/latest/${GREENHOUSE_ID}`, signal),
    ...polling,
  });
}

export function useDevices() {
  return useQuery({
    queryKey: queryKeys.devices,
    queryFn: ({ signal }) => listOrEmpty<Device>(`/api/devices/${GREENHOUSE_ID}`, signal),
    ...polling,
  });
}

export function useActiveAlerts() {
  return useQuery({
    queryKey: queryKeys.activeAlerts,
    queryFn: ({ signal }) => listOrEmpty<Alert>(`/api/alerts/active/${GREENHOUSE_ID}`, signal),
    ...polling,
  });
}

/** Latest readings keyed by sensorType, as the spec describes them. */
export function readingsBySensor(readings: readonly Reading[] | undefined): Partial<Record<Reading['sensorType'], Reading>> {
  const bySensor: Partial<Record<Reading['sensorType'], Reading>> = {};
  for (const reading of readings ?? []) bySensor[reading.sensorType] = reading;
  return bySensor;
}

/** CRITICAL or HIGH unresolved alerts: the header bell and the Critical Alerts card count these. */
export function countUrgentAlerts(alerts: readonly Alert[] | undefined): number {
  return (alerts ?? []).filter((a) => !a.isResolved && (a.severity === 'CRITICAL' || a.severity === 'HIGH')).length;
}
