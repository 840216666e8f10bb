import type { FastifyRequest } from 'fastify';
import type { Role } from '../contract/user.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { TokenClaims } from './tokens.ts';
import type { UserRow, UsersRepo } from './users-repo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, loaded fresh from the database by `authenticate`. */
    account?: UserRow;
  }
}

/**
 * Verifies a token (signature, expiry) and that it still matches its account: a deleted account or a
 * password change since the token was issued makes it invalid.
 */
export function accountFromClaims(users: UsersRepo, claims: TokenClaims): UserRow | null {
  const id = Number(claims.sub);
  if (!Number.isSafeInteger(id)) return null;
  const account = users.findById(id);
  if (!account || account.tokenVersion !== claims.tv) return null;
  return account;
}

export function makeAuthenticate(users: UsersRepo) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    if (!request.headers.authorization) throw unauthorized('Authentication required: send a bearer token');
    let claims: TokenClaims;
    try {
      claims = await request.jwtVerify<TokenClaims>();
    } catch (err) {
      const expired = (err as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED';
      throw unauthorized(expired ? 'Session expired, please sign in again' : 'Invalid or malformed token');
    }
    const account = accountFromClaims(users, claims);
    if (!account) throw unauthorized('Invalid or revoked token, please sign in again');
    request.account = account;
  };
}

/** A preHandler that lets only the given roles through (after `authenticate`). */
export function requireRole(...roles: Role[]) {
  return async function roleGuard(request: FastifyRequest): Promise<void> {
    const role = request.account?.role;
    if (!role) throw unauthorized();
    if (!roles.includes(role)) {
      throw forbidden(
        role === 'viewer' ? 'Viewers have read-only access' : `This action needs the ${roles.join(' or ')} role`,
      );
    }
  };
}

/** Operators and admins may change things; viewers only look. */
export const requireWriter = () => requireRole('admin', 'operator');
