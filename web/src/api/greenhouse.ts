// Which greenhouse the dashboard shows: the signed-in user's first greenhouseAccess entry (docs/decisions.md:
// every user gets the gateway's configured id there), so a gateway configured with another id works.
//   const greenhouseId = useGreenhouseId();
import type { PublicUser } from '../../../server/contract/user.ts';
import { GREENHOUSE_ID_ALIAS } from '../../../common/catalogue.ts';
import { useAuth } from '../auth/AuthProvider.tsx';

/**
 * Used only before the user (and its access list) is known: the alias the gateway always resolves to
 * its one greenhouse, whatever its configured id.
 */
export const DEFAULT_GREENHOUSE_ID = GREENHOUSE_ID_ALIAS;

export function greenhouseIdOf(user: PublicUser | null | undefined): string {
  return user?.greenhouseAccess?.[0]?.greenhouseId || DEFAULT_GREENHOUSE_ID;
}

export function useGreenhouseId(): string {
  return greenhouseIdOf(useAuth().user);
}
