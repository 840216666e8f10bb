// Alert calls and queries of the Alerts feature. Keys start with 'alerts' so the realtime
// newAlert/alertResolved events refresh them with the shared active-alerts list.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Alert, AlertStats, Severity } from '../../../server/contract/alert.ts';
import { api, ApiError } from './client.ts';
import { fetchList, POLL_INTERVAL_MS, useGreenhouseId } from './queries.ts';
import { useGreenhouseSettings } from './settings.ts';

/** A manual resolve says so (the same text the server writes when none is given). */
export { MANUAL_RESOLUTION } from '../../../common/catalogue.ts';
import { MANUAL_RESOLUTION } from '../../../common/catalogue.ts';

export type StatusFilter = 'all' | 'active' | 'resolved';
export type SeverityFilter = 'all' | Severity;

export const alertKeys = {
  all: ['alerts'] as const,
  history: (greenhouseId: string, status: StatusFilter, severity: SeverityFilter) => ['alerts', 'history', greenhouseId, status, severity] as const,
  stats: (greenhouseId: string) => ['alerts', 'stats', greenhouseId] as const,
};

/** The query string shared by the history list and its CSV export, so the export has the rows shown. */
export function filterQuery(status: StatusFilter, severity: SeverityFilter): string {
  const params = new URLSearchParams();
  if (status !== 'all') params.set('status', status);
  if (severity !== 'all') params.set('severity', severity);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Ids this tab resolved itself: the realtime `alertResolved` echo of our own action is not toasted again
 * as "Alert resolved: ..." (that toast is for alerts resolved elsewhere or by the gateway).
 */
const resolvedHere = new Set<string>();
export function takeResolvedHere(id: string): boolean {
  return resolvedHere.delete(id);
}

export function useAlertHistory(status: StatusFilter, severity: SeverityFilter) {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: alertKeys.history(greenhouseId, status, severity),
    queryFn: ({ signal }) => fetchList<Alert>(`/api/alerts/${greenhouseId}${filterQuery(status, severity)}`, signal),
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useAlertStats() {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: alertKeys.stats(greenhouseId),
    queryFn: async ({ signal }) => {
      const envelope = await api.request<AlertStats>('GET', `/api/alerts/stats/${greenhouseId}`, undefined, { signal });
      const stats = (envelope.stats as AlertStats | undefined) ?? envelope.data;
      if (!stats || typeof stats !== 'object') throw new ApiError('Unexpected answer from the gateway', 200);
      return stats;
    },
    refetchInterval: POLL_INTERVAL_MS,
  });
}

/** The alert thresholds (read-only here), from the one settings query. */
export function useAlertThresholds() {
  const settings = useGreenhouseSettings();
  return { ...settings, data: settings.data?.alertThresholds };
}

/** Resolve and delete as mutations, each refreshing every alert query afterwards; the CSV export. */
export function useAlertActions() {
  const queryClient = useQueryClient();
  const greenhouseId = useGreenhouseId();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: alertKeys.all });
  const resolve = useMutation({
    mutationFn: (id: string) => api.put(`/api/alerts/${id}/resolve`, { actionTaken: MANUAL_RESOLUTION }),
    onMutate: (id) => void resolvedHere.add(id),
    onError: (_err, id) => void resolvedHere.delete(id),
    onSettled,
  });
  const remove = useMutation({ mutationFn: (id: string) => api.del(`/api/alerts/${id}`), onSettled });
  return {
    resolve: async (id: string): Promise<void> => void (await resolve.mutateAsync(id)),
    remove: async (id: string): Promise<void> => void (await remove.mutateAsync(id)),
    exportCsv(status: StatusFilter, severity: SeverityFilter): Promise<void> {
      const day = new Date().toISOString().slice(0, 10);
      return api.download(`/api/alerts/export/${greenhouseId}${filterQuery(status, severity)}`, `alerts-${greenhouseId}-${day}.csv`);
    },
  };
}
