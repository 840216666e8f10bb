// Sensor data the Sensors and Overview screens load beyond the shared latest readings.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Reading, SensorType } from '../../../server/contract/reading.ts';
import type { AlertThresholds } from '../../../server/contract/settings.ts';
import { fetchList, useGreenhouseId } from './queries.ts';
import { useGreenhouseSettings } from './settings.ts';

export type SensorFilter = 'all' | Exclude<SensorType, 'WATER_LEVEL'>;

/** The alert thresholds (Overview: "Alert thresholds settings are loaded on this screen"). */
export function useAlertThresholds(): AlertThresholds | undefined {
  return useGreenhouseSettings().data?.alertThresholds;
}

/** Starts with 'history', not with the latest-readings prefix, so a live reading does not refetch it. */
export const historyKey = (greenhouseId: string, hours: number, filter: SensorFilter) => ['history', greenhouseId, hours, filter] as const;

/**
 * History for the chart. Loads on first display and whenever `hours` or `filter` changes (docs/product.md §4);
 * while a new range loads, and after a failed load, the chart keeps what it showed (docs/product.md §8),
 * and `isError` lets the screen say the data is not current.
 */
export function useSensorHistory(hours: number, filter: SensorFilter) {
  const greenhouseId = useGreenhouseId();
  const query = useQuery({
    queryKey: historyKey(greenhouseId, hours, filter),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ hours: String(hours) });
      if (filter !== 'all') params.set('sensorType', filter);
      return fetchList<Reading>(`/api/sensors/historical/${greenhouseId}?${params}`, signal);
    },
    placeholderData: keepPreviousData,
  });
  return {
    readings: query.data ?? [],
    loading: query.isFetching,
    isError: query.isError,
    /** Why the last load failed (the gateway's own words when it gave them). */
    error: query.error,
    /** Never loaded and failed: nothing to show. */
    neverLoaded: query.data === undefined,
    reload: () => query.refetch(),
  };
}
