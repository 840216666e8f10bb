// TanStack Query hooks for the data the shell loads and every screen reuses: one hook per resource.
// Polling: every 15 s, and only when the last fetch is older than 15 s (docs/product.md §4, §9) —
// staleTime = refetchInterval = 15 s does exactly that. Realtime events invalidate these keys
// (realtime/event-effects.ts), so screens stay live between polls.
//
// Query functions THROW on failure: TanStack Query then keeps the last good data, sets
// `isError`, and screens say "unreachable" or "stale" instead of rendering a failure as empty data.
// Failures are logged once, centrally (docs/product.md §8), by the QueryCache below.
import { MutationCache, QueryCache, QueryClient, useQuery } from '@tanstack/react-query';
import type { Alert } from '../../../server/contract/alert.ts';
import type { Device } from '../../../server/contract/device.ts';
import type { Reading, SensorInstance } from '../../../server/contract/reading.ts';
import { api, ApiError } from './client.ts';
import { useGreenhouseId } from './greenhouse.ts';
import { isNotYet, type Reachability } from './reachability.ts';

export { DEFAULT_GREENHOUSE_ID, useGreenhouseId } from './greenhouse.ts';

export const POLL_INTERVAL_MS = 15_000;
/**
 * A query the gateway answered "not yet" (503) asks again by itself, when its Retry-After says (within
 * 5-60 s), else this often. One with an interval of its own says so itself (notYetRetryMs).
 */
export const NOT_YET_RETRY_MS = 10_000;
const NOT_YET_RETRY_BOUNDS_MS = { min: 5_000, max: 60_000 } as const;

/** When to ask again after a "not yet" (503), or false when the error is not one. */
export function notYetRetryMs(error: unknown): number | false {
  if (!isNotYet(error)) return false;
  const saidMs = (error as ApiError).retryAfterMs ?? NOT_YET_RETRY_MS;
  return Math.min(NOT_YET_RETRY_BOUNDS_MS.max, Math.max(NOT_YET_RETRY_BOUNDS_MS.min, saidMs));
}

/**
 * Query key prefixes: screens invalidate by prefix, e.g. invalidateQueries({ queryKey: queryKeys.devices }).
 * The full key appends the greenhouse id: [...queryKeys.devices, greenhouseId].
 */
export const queryKeys = {
  latestReadings: ['sensors', 'latest'] as const,
  devices: ['devices', 'list'] as const,
  activeAlerts: ['alerts', 'active'] as const,
  settings: ['settings'] as const,
} as const;

export function createQueryClient(reachability: Reachability): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        reachability.failed(error);
        console.error(`Failed to load ${JSON.stringify(query.queryKey)}:`, error);
      },
      onSuccess: () => reachability.answered(),
    }),
    mutationCache: new MutationCache({
      onError: (error) => reachability.failed(error),
      onSuccess: () => reachability.answered(),
    }),
    defaultOptions: {
      queries: {
        staleTime: POLL_INTERVAL_MS,
        // One retry smooths over a Wi-Fi blip in the greenhouse; 4xx will not improve on retry.
        retry: (failures, error) => failures < 1 && !(error as { status?: number }).status,
        // History says "not yet" while the rollups catch up (a 503 with how far it is): ask again by
        // itself, so the chart appears when it is through. Polled queries keep their own interval.
        refetchInterval: (query) => notYetRetryMs(query.state.error),
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}

/** A list answer; anything else is a failure, never an empty list. */
export async function fetchList<T>(path: string, signal: AbortSignal): Promise<T[]> {
  const data = await api.get<T[]>(path, { signal });
  if (!Array.isArray(data)) throw new ApiError('Unexpected answer from the gateway', 200);
  return data;
}

const polling = { refetchInterval: POLL_INTERVAL_MS, staleTime: POLL_INTERVAL_MS } as const;

/** Latest reading per sensor type (DHT11, LDR, SOIL_MOISTURE, WATER_LEVEL). */
export function useLatestReadings() {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: [...queryKeys.latestReadings, greenhouseId],
    queryFn: ({ signal }) => fetchList<Reading>(`/api/sensors/latest/${greenhouseId}`, signal),
    ...polling,
  });
}

export function useDevices() {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: [...queryKeys.devices, greenhouseId],
    queryFn: ({ signal }) => fetchList<Device>(`/api/devices/${greenhouseId}`, signal),
    ...polling,
  });
}

export function useActiveAlerts() {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: [...queryKeys.activeAlerts, greenhouseId],
    queryFn: ({ signal }) => fetchList<Alert>(`/api/alerts/active/${greenhouseId}`, signal),
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

/** Every configured sensor instance with its health, newest values and accuracy. */
export function useSensorInstances() {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: ['sensorInstances', greenhouseId],
    queryFn: ({ signal }) => fetchList<SensorInstance>(`/api/sensors/instances/${greenhouseId}`, signal),
    ...polling,
  });
}
