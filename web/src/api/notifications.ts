// Notification channels, their delivery log (admins) and acknowledging alerts (operators and admins).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Alert } from '../../../server/contract/alert.ts';
import type { ChannelKind, ChannelTestResult, Delivery, NotificationChannel, QuietHours } from '../../../server/contract/notification.ts';
import type { Severity } from '../../../server/contract/alert.ts';
import { api } from './client.ts';
import { POLL_INTERVAL_MS } from './queries.ts';

export const notificationKeys = {
  channels: ['notifications', 'channels'] as const,
  log: ['notifications', 'log'] as const,
};

export interface ChannelForm {
  channelId: string;
  kind: ChannelKind;
  target: string;
  minSeverity: Severity;
  quietHours: QuietHours | null;
  /** Empty: keep the stored one (edit) or none (new). */
  secret: string;
}

export function useChannels() {
  return useQuery({
    queryKey: notificationKeys.channels,
    queryFn: ({ signal }) => api.get<NotificationChannel[]>('/api/notifications/channels', { signal }),
  });
}

/** The delivery log, refreshed while open: a retry's outcome shows up without reloading. */
export function useDeliveryLog() {
  return useQuery({
    queryKey: notificationKeys.log,
    queryFn: ({ signal }) => api.get<Delivery[]>('/api/notifications/log?limit=100', { signal }),
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useChannelActions() {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: ['notifications'] });
  const save = useMutation({
    mutationFn: ({ form, existing }: { form: ChannelForm; existing: boolean }) => {
      const body = { kind: form.kind, target: form.target.trim(), minSeverity: form.minSeverity, quietHours: form.quietHours, ...(form.secret ? { secret: form.secret } : {}) };
      return existing
        ? api.put<NotificationChannel>(`/api/notifications/channels/${encodeURIComponent(form.channelId)}`, body)
        : api.post<NotificationChannel>('/api/notifications/channels', { channelId: form.channelId.trim(), ...body });
    },
    onSettled,
  });
  const remove = useMutation({ mutationFn: (channelId: string) => api.del(`/api/notifications/channels/${encodeURIComponent(channelId)}`), onSettled });
  const test = useMutation({
    mutationFn: (channelId: string) => api.post<ChannelTestResult>(`/api/notifications/channels/${encodeURIComponent(channelId)}/test`, {}),
    onSettled,
  });
  return { save: save.mutateAsync, remove: remove.mutateAsync, test: test.mutateAsync };
}

/** "I have seen it": stops a CRITICAL being sent again to every channel; refreshes every alert list. */
export function useAcknowledge() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => api.put<Alert>(`/api/alerts/${encodeURIComponent(id)}/acknowledge`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
  return mutation.mutateAsync;
}
