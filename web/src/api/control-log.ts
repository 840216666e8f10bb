// A device's control log (GET /api/devices/:deviceId/log): newest first, optionally one source, paged
// backwards with `before` and `beforeId` (the oldest entry shown so far: its time and id, so an entry
// written in the same millisecond is not skipped). The key starts with 'devices', so every
// realtime device event refreshes an open log too.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ControlLog, ControlSource } from '../../../server/contract/device.ts';
import { api } from './client.ts';

export const CONTROL_LOG_PAGE = 50;

export type LogSourceFilter = ControlSource | 'all';

interface LogCursor {
  before: string;
  beforeId: string;
}

export function controlLogPath(deviceId: string, source: LogSourceFilter, cursor: LogCursor | null): string {
  const query = new URLSearchParams({ limit: String(CONTROL_LOG_PAGE) });
  if (source !== 'all') query.set('source', source);
  if (cursor) {
    query.set('before', cursor.before);
    query.set('beforeId', cursor.beforeId);
  }
  return `/api/devices/${encodeURIComponent(deviceId)}/log?${query.toString()}`;
}

export function useControlLog(deviceId: string, source: LogSourceFilter) {
  return useInfiniteQuery({
    queryKey: ['devices', 'log', deviceId, source],
    queryFn: ({ pageParam, signal }) => api.get<ControlLog[]>(controlLogPath(deviceId, source, pageParam), { signal }),
    initialPageParam: null as LogCursor | null,
    // A full page may have older entries behind it; a short one is the end of the log.
    getNextPageParam: (last): LogCursor | undefined => {
      const oldest = last[last.length - 1];
      return last.length === CONTROL_LOG_PAGE && oldest ? { before: oldest.timestamp, beforeId: oldest._id } : undefined;
    },
  });
}
