// Sensor data the Sensors and Overview screens load beyond the shared latest readings.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Reading, SensorType } from '../../../server/contract/reading.ts';
import type { AlertThresholds, Settings } from '../../../server/contract/settings.ts';
import { api } from './client.ts';
import { GREENHOUSE_ID } from './queries.ts';

export type SensorFilter = 'all' | Exclude<SensorType, 'WATER_LEVEL'>;

/** The alert thresholds (Overview: "Alert thresholds settings are loaded on this screen"). */
export function useAlertThresholds(): AlertThresholds | undefined {
  const { data } = useQuery({
    queryKey: ['settings', GREENHOUSE_ID],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<Settings>(`/api/settings/${GREENHOUSE_ID}`, { signal });
      } catch (err) {
        if (!signal.aborted) console.error('Failed to load alert thresholds:', err);
        return null;
      }
    },
    staleTime: 60_000,
  });
  return data?.alertThresholds;
}

/**
 * History for the chart. Loads on first display and whenever `hours` or `filter` changes (spec section 4);
 * a failed load is only logged and the data stays as it was (spec section 8).
 */
export function useSensorHistory(hours: number, filter: SensorFilter) {
  const [readings, setReadings] = useState<Reading[]>([]);
  const [loading, setLoading] = useState(false);
  const latestRequest = useRef(0);

  const load = useCallback(async () => {
    const request = ++latestRequest.current;
    setLoading(true);
    const query = new URLSearchParams({ hours: String(hours) });
    if (filter !== 'all') query.set('sensorType', filter);
    try {
      const envelope = await api.request<Reading[]>('GET', `/api/sensors/historical/${GREENHOUSE_ID}?${query}`);
      if (request !== latestRequest.current) return; // a newer range was asked for meanwhile
      if (envelope.success && Array.isArray(envelope.data)) setReadings(envelope.data);
      else console.error('Historical data load failed:', envelope.message);
    } catch (err) {
      console.error('Historical data load failed:', err);
    } finally {
      if (request === latestRequest.current) setLoading(false);
    }
  }, [hours, filter]);

  useEffect(() => {
    void load();
  }, [load]);

  return { readings, loading, reload: load };
}
