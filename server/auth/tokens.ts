import type { FastifyInstance } from 'fastify';
import type { Role } from '../contract/user.ts';
import type { UserRow } from './users-repo.ts';

/** What a token carries. `tv` is the user's token version: a password change revokes older tokens. */
export interface TokenClaims {
  sub: string;
  username: string;
  role: Role;
  tv: number;
}

export const TOKEN_LIFETIME = '24h';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims & { iat: number; exp: number };
  }
}

export function issueToken(app: FastifyInstance, user: UserRow): string {
  return app.jwt.sign(
    { sub: String(user.id), username: user.username, role: user.role, tv: user.tokenVersion },
    { expiresIn: TOKEN_LIFETIME },
  );
}
