// A device's control log (GET /api/devices/:deviceId/log): newest first, optionally one source, paged
// backwards with `before` (the oldest timestamp shown so far). The key starts with 'devices', so every
// realtime device event refreshes an open log too.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ControlLog, ControlSource } from '../../../server/contract/device.ts';
import { api } from './client.ts';

export const CONTROL_LOG_PAGE = 50;

export type LogSourceFilter = ControlSource | 'all';

export function controlLogPath(deviceId: string, source: LogSourceFilter, before: string | null): string {
  const query = new URLSearchParams({ limit: String(CONTROL_LOG_PAGE) });
  if (source !== 'all') query.set('source', source);
  if (before) query.set('before', before);
  return `/api/devices/${encodeURIComponent(deviceId)}/log?${query.toString()}`;
}

export function useControlLog(deviceId: string, source: LogSourceFilter) {
  return useInfiniteQuery({
    queryKey: ['devices', 'log', deviceId, source],
    queryFn: ({ pageParam, signal }) => api.get<ControlLog[]>(controlLogPath(deviceId, source, pageParam), { signal }),
    initialPageParam: null as string | null,
    // A full page may have older entries behind it; a short one is the end of the log.
    getNextPageParam: (last) => (last.length === CONTROL_LOG_PAGE ? last[last.length - 1]!.timestamp : undefined),
  });
}
