// Analytics-screen data. Every load failure is only logged and yields empty data (spec section 8).
import { useQuery } from '@tanstack/react-query';
import type { DeviceStats } from '../../../server/contract/device.ts';
import type { HourlyBucket, Reading, SensorStats } from '../../../server/contract/reading.ts';
import { api } from './client.ts';
import { GREENHOUSE_ID } from './queries.ts';

export { HISTORY_RANGES as ANALYTICS_RANGES } from '../history-ranges.ts';

export type { HourlyBucket, SensorStats };

async function orEmpty<T>(what: string, load: () => Promise<T>, empty: T): Promise<T> {
  try {
    const data = await load();
    return data ?? empty;
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    console.error(`Analytics: failed to load ${what}`, err);
    return empty;
  }
}

const asArray = <T,>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

export function useSensorStats(hours: number) {
  return useQuery({
    queryKey: ['analytics', 'stats', hours],
    queryFn: ({ signal }) =>
      orEmpty('sensor stats', async () => asArray<SensorStats>(await api.get(`/api/sensors/stats/${GREENHOUSE_ID}?hours=${hours}`, { signal })), []),
  });
}

export function useHourlyActivity(hours: number) {
  return useQuery({
    queryKey: ['analytics', 'hourly', hours],
    queryFn: ({ signal }) =>
      orEmpty('hourly activity', async () => asArray<HourlyBucket>(await api.get(`/api/sensors/hourly/${GREENHOUSE_ID}?hours=${hours}`, { signal })), []),
  });
}

export function useHistory(hours: number) {
  return useQuery({
    queryKey: ['analytics', 'historical', hours],
    queryFn: ({ signal }) =>
      orEmpty('history', async () => asArray<Reading>(await api.get(`/api/sensors/historical/${GREENHOUSE_ID}?hours=${hours}`, { signal })), []),
  });
}

/** Starts with 'devices' so the realtime device events refresh it (web/README.md). */
export function useDeviceStats() {
  return useQuery({
    queryKey: ['devices', 'stats', 'analytics'],
    queryFn: ({ signal }) =>
      orEmpty<DeviceStats | null>('device stats', async () => {
        const stats = await api.get<DeviceStats>(`/api/devices/stats/${GREENHOUSE_ID}`, { signal });
        return stats && Array.isArray(stats.byType) ? stats : null;
      }, null),
  });
}
