// Who may change things (design.md, "Users and roles"): viewers are read-only, so screens hide or
// disable device control, device/alert changes and settings changes for them. The server enforces
// the same rule with 403; this only keeps the UI honest.
import type { PublicUser } from '../../../server/contract/user.ts';
import { useAuth } from './AuthProvider.tsx';

export function canModify(user: PublicUser | null): boolean {
  return user !== null && user.role !== 'viewer';
}

/** `const canEdit = useCanModify();` then `<button disabled={!canEdit}>`. */
export function useCanModify(): boolean {
  return canModify(useAuth().user);
}
