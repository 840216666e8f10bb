import type { FastifyRequest } from 'fastify';
import type { Role } from '../contract/user.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { TokenClaims, TokenService, VerifiedClaims } from './tokens.ts';
import type { UserRow, UsersRepo } from './users-repo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, loaded fresh from the database by `authenticate`. */
    account?: UserRow;
    /** The claims of the bearer token it signed in with (the session's start, for a refresh). */
    tokenClaims?: VerifiedClaims;
  }
}

/** Roles that may change things (devices, automation, alerts, thresholds); viewers only look. */
export const WRITER_ROLES: readonly Role[] = ['admin', 'operator'];

/**
 * Why `role` may not do what needs one of `allowed`, or null when it may. One wording for REST and
 * websocket commands.
 */
export function roleRefusal(role: Role, allowed: readonly Role[]): string | null {
  if (allowed.includes(role)) return null;
  return role === 'viewer' ? 'Viewers have read-only access' : `This action needs the ${allowed.join(' or ')} role`;
}

/**
 * Checks that a token's claims still match its account: a deleted account or a password change since
 * the token was issued makes it invalid.
 */
export function accountFromClaims(users: UsersRepo, claims: TokenClaims): UserRow | null {
  const id = Number(claims.sub);
  if (!Number.isSafeInteger(id)) return null;
  const account = users.findById(id);
  if (!account || account.tokenVersion !== claims.tv) return null;
  return account;
}

/** The bearer token of an `Authorization` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** A self-registered account that no admin has granted yet (server/auth/README.md, "Pending accounts"). */
export function isPending(account: Pick<UserRow, 'requestedRole'>): boolean {
  return account.requestedRole !== null;
}

export const PENDING_REFUSAL = 'Your account is waiting for an administrator to approve it';

/**
 * The guard of authenticated routes: a valid, unrevoked bearer token of an existing account. A pending
 * account passes only where `allowPending` (its own profile and session: /api/auth); everywhere else,
 * HTTP, websocket, metrics and exports alike, it is 403.
 */
export function makeAuthenticate(users: UsersRepo, tokens: TokenService, options: { allowPending: boolean }) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    if (!request.headers.authorization) throw unauthorized('Authentication required: send a bearer token');
    const token = bearerToken(request.headers.authorization);
    const checked = token ? tokens.check(token) : ({ ok: false, reason: 'invalid' } as const);
    if (!checked.ok) {
      throw unauthorized(checked.reason === 'expired' ? 'Session expired, please sign in again' : 'Invalid or malformed token');
    }
    const account = accountFromClaims(users, checked.claims);
    if (!account) throw unauthorized('Invalid or revoked token, please sign in again');
    if (!options.allowPending && isPending(account)) throw forbidden(PENDING_REFUSAL);
    request.account = account;
    request.tokenClaims = checked.claims;
  };
}

/** A preHandler that lets only the given roles through (after `authenticate`). */
export function requireRole(...roles: Role[]) {
  return async function roleGuard(request: FastifyRequest): Promise<void> {
    const role = request.account?.role;
    if (!role) throw unauthorized();
    const refusal = roleRefusal(role, roles);
    if (refusal) throw forbidden(refusal);
  };
}

/** Operators and admins may change things; viewers only look. */
export const requireWriter = () => requireRole(...WRITER_ROLES);
