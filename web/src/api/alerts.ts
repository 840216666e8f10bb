// Alert calls and queries of the Alerts feature. Keys start with 'alerts' so the realtime
// newAlert/alertResolved events refresh them with the shared active-alerts list.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Alert, AlertStats, Severity } from '../../../server/contract/alert.ts';
import type { Settings } from '../../../server/contract/settings.ts';
import { api } from './client.ts';
import { GREENHOUSE_ID, POLL_INTERVAL_MS } from './queries.ts';

/** Spec section 4: a manual resolve says so. (Copied from server/contract/alert.ts: web imports types only.) */
export const MANUAL_RESOLUTION = 'Manually resolved by user';

export type StatusFilter = 'all' | 'active' | 'resolved';
export type SeverityFilter = 'all' | Severity;

export const alertKeys = {
  all: ['alerts'] as const,
  history: (status: StatusFilter, severity: SeverityFilter) => ['alerts', 'history', GREENHOUSE_ID, status, severity] as const,
  stats: ['alerts', 'stats', GREENHOUSE_ID] as const,
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
  return useQuery({
    queryKey: alertKeys.history(status, severity),
    queryFn: async ({ signal }) => {
      try {
        const data = await api.get<Alert[]>(`/api/alerts/${GREENHOUSE_ID}${filterQuery(status, severity)}`, { signal });
        return Array.isArray(data) ? data : [];
      } catch (err) {
        if (signal.aborted) throw err;
        console.error('Failed to load alerts:', err);
        return [];
      }
    },
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useAlertStats() {
  return useQuery({
    queryKey: alertKeys.stats,
    queryFn: async ({ signal }) => {
      try {
        const envelope = await api.request<AlertStats>('GET', `/api/alerts/stats/${GREENHOUSE_ID}`, undefined, { signal });
        return ((envelope.stats as AlertStats | undefined) ?? envelope.data ?? null) as AlertStats | null;
      } catch (err) {
        if (signal.aborted) throw err;
        console.error('Failed to load alert stats:', err);
        return null;
      }
    },
    refetchInterval: POLL_INTERVAL_MS,
  });
}

/** Settings as the Alert Configuration panel reads them (read-only). */
export function useAlertThresholds() {
  return useQuery({
    queryKey: ['settings', GREENHOUSE_ID],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<Settings>(`/api/settings/${GREENHOUSE_ID}`, { signal });
      } catch (err) {
        if (signal.aborted) throw err;
        console.error('Failed to load alert thresholds:', err);
        return null;
      }
    },
    select: (settings) => settings?.alertThresholds ?? null,
  });
}

/** Resolve and delete, each refreshing every alert query afterwards. */
export function useAlertActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.all });
  return {
    async resolve(id: string): Promise<void> {
      resolvedHere.add(id);
      try {
        await api.put(`/api/alerts/${id}/resolve`, { actionTaken: MANUAL_RESOLUTION });
      } catch (err) {
        resolvedHere.delete(id);
        throw err;
      } finally {
        void refresh();
      }
    },
    async remove(id: string): Promise<void> {
      try {
        await api.del(`/api/alerts/${id}`);
      } finally {
        void refresh();
      }
    },
    exportCsv(status: StatusFilter, severity: SeverityFilter): Promise<void> {
      const day = new Date().toISOString().slice(0, 10);
      return api.download(`/api/alerts/export/${GREENHOUSE_ID}${filterQuery(status, severity)}`, `alerts-${GREENHOUSE_ID}-${day}.csv`);
    },
  };
}
