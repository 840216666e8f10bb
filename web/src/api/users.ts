// The admin's users API (docs/decisions.md, Users and roles): list (pending requests first), create, change
// a role (granting a request clears it), delete.
//   const { data: users } = useUsers();  const { changeRole } = useUserActions();  await changeRole('ann', 'operator');
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicUser, Role } from '../../../server/contract/user.ts';
import { api } from './client.ts';

export const usersKey = ['users'] as const;

/** `refetchIntervalMs`: the header polls, so an admin sees a new access request without reloading. */
export function useUsers(enabled: boolean, refetchIntervalMs?: number) {
  return useQuery({
    queryKey: usersKey,
    queryFn: ({ signal }) => api.get<PublicUser[]>('/api/users', { signal }),
    enabled,
    refetchInterval: refetchIntervalMs,
  });
}

export interface NewUser {
  username: string;
  email: string;
  password: string;
  role: Role;
}

export function useUserActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: usersKey });
  return {
    create: async (user: NewUser) => {
      await api.post<PublicUser>('/api/users', user);
      await refresh();
    },
    changeRole: async (username: string, role: Role) => {
      await api.put<PublicUser>(`/api/users/${encodeURIComponent(username)}`, { role });
      await refresh();
    },
    remove: async (username: string) => {
      await api.del<null>(`/api/users/${encodeURIComponent(username)}`);
      await refresh();
    },
  };
}
