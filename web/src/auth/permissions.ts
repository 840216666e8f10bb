// Who may change things (docs/decisions.md, "Users and roles"): viewers are read-only; operators also control
// devices, automation, alerts and alert thresholds; admins also change system and device-safety
// settings, reset settings and manage users. Screens disable what a role may not do and say why; the
// server enforces the same rules with 403, this only keeps the UI honest.
import type { PublicUser, Role } from '../../../server/contract/user.ts';
import { useAuth } from './AuthProvider.tsx';

export function canModify(user: PublicUser | null): boolean {
  return user !== null && user.role !== 'viewer';
}

export function isAdmin(user: PublicUser | null): boolean {
  return user?.role === 'admin';
}

/** Why `user` may not do what needs `needed`, or null when it may: shown next to the disabled control. */
export function roleReason(user: PublicUser | null, needed: Exclude<Role, 'viewer'>): string | null {
  if (needed === 'admin' ? isAdmin(user) : canModify(user)) return null;
  if (needed === 'admin') return 'Only an admin can change these settings.';
  const pending = user?.requestedRole && user.requestedRole !== 'viewer' ? ` Your request for the ${user.requestedRole} role is waiting for an admin.` : '';
  return `Viewers have read-only access.${pending}`;
}

/** `const canEdit = useCanModify();` then `<button disabled={!canEdit}>`. */
export function useCanModify(): boolean {
  return canModify(useAuth().user);
}
