// Settings-screen data: the greenhouse settings and the email-notification capability.
//   const id = settingsGreenhouseId(user);  const { data, isError, refetch } = useSettings(id);
import { useQuery } from '@tanstack/react-query';
import type { PublicUser } from '../../../server/contract/user.ts';
import type { Settings } from '../../../server/contract/settings.ts';
import { api } from './client.ts';

/** Spec section 1: the settings screen uses the user's first greenhouseAccess id, or 'default'. */
export function settingsGreenhouseId(user: PublicUser | null): string {
  return user?.greenhouseAccess?.[0]?.greenhouseId || 'default';
}

export const settingsKey = (greenhouseId: string) => ['settings', greenhouseId] as const;

export function useSettings(greenhouseId: string) {
  return useQuery({
    queryKey: settingsKey(greenhouseId),
    queryFn: ({ signal }) => api.get<Settings>(`/api/settings/${greenhouseId}`, { signal }),
    // A form is being edited from it: polling must not overwrite what the user typed.
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
}

/** Whether SMTP is configured (email notifications can work); null when unknown. */
export function useEmailConfigured(): boolean | null {
  const query = useQuery({
    queryKey: ['notifications', 'status'],
    queryFn: ({ signal }) => api.get<{ emailConfigured: boolean }>('/api/notifications/status', { signal }),
    retry: false,
    refetchInterval: false,
  });
  return query.data ? query.data.emailConfigured : null;
}
