// Shared plumbing of the settings tabs: one busy flag + toast per action, and a form kept in step
// with the greenhouse settings.
import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Settings } from '../../../../server/contract/settings.ts';
import type { PublicUser } from '../../../../server/contract/user.ts';
import { api, errorMessage } from '../../api/client.ts';
import { settingsGreenhouseId, settingsKey, useSettings } from '../../api/settings.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { roleReason } from '../../auth/permissions.ts';
import { toast } from '../../components/toast/index.ts';

/** `run(work, 'Saved', 'Failed to save')`: busy while it runs, a success or error toast after. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<unknown>, success: string, failure: string) => {
    setBusy(true);
    try {
      await work();
      // Keyed by the failure text (one per action): a success removes that action's error toast.
      toast.success(success, { key: failure });
    } catch (err) {
      toast.error(errorMessage(err, failure), { key: failure });
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, run };
}

/** PUT /api/auth/profile and keep the signed-in user in step (Profile and Notifications tabs). */
export function useProfileSave() {
  const { updateUser } = useAuth();
  const { busy, run } = useAction();
  const save = (changes: Partial<Pick<PublicUser, 'email' | 'preferences'>>) =>
    run(async () => updateUser(await api.put<PublicUser>('/api/auth/profile', changes)), 'Profile updated successfully', 'Failed to update profile');
  return { busy, save };
}

/**
 * A form over part of the greenhouse settings; `adopt` takes a server answer as the new truth.
 * `needed` is the role that may change it: `editable` is false otherwise and `reason` says why.
 */
export function useSettingsForm<F>(toForm: (settings: Settings) => F, needed: 'operator' | 'admin') {
  const { user } = useAuth();
  const greenhouseId = settingsGreenhouseId(user);
  const query = useSettings(greenhouseId, { live: false });
  const queryClient = useQueryClient();
  const [form, setForm] = useState<F | null>(null);

  useEffect(() => {
    if (query.data) setForm(toForm(query.data));
    // toForm is a module-level function in every caller.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.data]);

  const adopt = (settings: Settings) => {
    queryClient.setQueryData(settingsKey(greenhouseId), settings);
    setForm(toForm(settings));
  };
  const reason = roleReason(user, needed);
  return { greenhouseId, editable: reason === null, reason, query, form, setForm, adopt };
}
