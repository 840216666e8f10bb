// Analytics-screen data. Query functions throw: a failed load is logged centrally (docs/product.md §8) and
// the screen shows the last data it had, marked, or "unreachable" — never a failure as "no data".
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HourlyBucket, SensorStats } from '../../../server/contract/reading.ts';
import { fetchList, useGreenhouseId } from './queries.ts';

export { HISTORY_RANGES as ANALYTICS_RANGES } from '../history-ranges.ts';

export type { HourlyBucket, SensorStats };

const keepShown = { placeholderData: keepPreviousData } as const;

export function useSensorStats(hours: number) {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: ['analytics', 'stats', greenhouseId, hours],
    queryFn: ({ signal }) => fetchList<SensorStats>(`/api/sensors/stats/${greenhouseId}?hours=${hours}`, signal),
    ...keepShown,
  });
}

export function useHourlyActivity(hours: number) {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: ['analytics', 'hourly', greenhouseId, hours],
    queryFn: ({ signal }) => fetchList<HourlyBucket>(`/api/sensors/hourly/${greenhouseId}?hours=${hours}`, signal),
    ...keepShown,
  });
}

export { useDeviceStats } from './devices.ts';
