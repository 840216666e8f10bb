import Type, { type Static } from 'typebox';
import { IsoTimestamp } from './common.ts';

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('operator'), Type.Literal('viewer')]);
export type Role = Static<typeof Role>;

export const Theme = Type.Union([Type.Literal('light'), Type.Literal('dark')]);
export type Theme = Static<typeof Theme>;

export const Preferences = Type.Object({
  alertNotifications: Type.Boolean(),
  emailNotifications: Type.Boolean(),
  theme: Theme,
});
export type Preferences = Static<typeof Preferences>;

export const DEFAULT_PREFERENCES: Preferences = {
  alertNotifications: true,
  emailNotifications: false,
  theme: 'light',
};

export const PublicUser = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  role: Role,
  /** The role a self-registered account asked for, while it waits for an admin; null otherwise. */
  requestedRole: Type.Union([Role, Type.Null()]),
  /**
   * Waiting for an admin (a self-registration under `approval`): it may read its own profile and
   * session only, everything else is 403, until an admin grants a role.
   */
  pending: Type.Boolean(),
  /** The newest sign-in (admins' Users tab). */
  lastLogin: Type.Union([IsoTimestamp, Type.Null()]),
  /** The sign-in before the newest one: for the person signed in, their "Last Login"; null if none. */
  previousLogin: Type.Union([IsoTimestamp, Type.Null()]),
  greenhouseAccess: Type.Array(Type.Object({ greenhouseId: Type.String() })),
  preferences: Preferences,
  createdAt: IsoTimestamp,
});
export type PublicUser = Static<typeof PublicUser>;

/** Who may self-register (config `registration`, docs/decisions.md Users and roles). */
export type RegistrationMode = 'approval' | 'open' | 'closed';

/** What login, register and refresh answer inside `data` (and, for older clients, at top level). */
export const Session = Type.Object({ token: Type.String(), user: PublicUser });
export type Session = Static<typeof Session>;
