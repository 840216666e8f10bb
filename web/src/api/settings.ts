// Settings-screen data: the greenhouse settings and the email-notification capability.
//   const id = settingsGreenhouseId(user);  const { data, isError, refetch } = useSettings(id);
import { useQuery } from '@tanstack/react-query';
import type { PublicUser } from '../../../server/contract/user.ts';
import type { Settings } from '../../../server/contract/settings.ts';
import { api } from './client.ts';
import { greenhouseIdOf, useGreenhouseId } from './greenhouse.ts';
import { POLL_INTERVAL_MS } from './queries.ts';

/** The settings screen uses the user's first greenhouseAccess id, or the alias (the same as every screen). */
export function settingsGreenhouseId(user: PublicUser | null): string {
  return greenhouseIdOf(user);
}

export const settingsKey = (greenhouseId: string) => ['settings', greenhouseId] as const;


/**
 * The greenhouse settings: the one hook for this resource. Screens that only read it (thresholds on the
 * Overview, maintenance mode everywhere) poll it; a form being edited passes `{ live: false }` so a
 * poll never overwrites what the user typed.
 */
export function useSettings(greenhouseId: string, { live = true }: { live?: boolean } = {}) {
  return useQuery({
    queryKey: settingsKey(greenhouseId),
    queryFn: ({ signal }) => api.get<Settings>(`/api/settings/${greenhouseId}`, { signal }),
    refetchInterval: live ? POLL_INTERVAL_MS : false,
    refetchOnWindowFocus: live,
  });
}

/** Settings of the greenhouse the dashboard shows. */
export function useGreenhouseSettings() {
  return useSettings(useGreenhouseId());
}

/** Maintenance mode refuses every control except switching off (docs/decisions.md); undefined while unknown. */
export function useMaintenanceMode(): boolean | undefined {
  return useGreenhouseSettings().data?.systemSettings.maintenanceMode;
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
