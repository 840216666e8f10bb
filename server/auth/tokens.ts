import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { Role } from '../contract/user.ts';
import type { UserRow } from './users-repo.ts';

/** What a token carries. `tv` is the user's token version: a password change revokes older tokens. */
export interface TokenClaims {
  sub: string;
  username: string;
  role: Role;
  tv: number;
}

export interface VerifiedClaims extends TokenClaims {
  iat: number;
  /** Expiry, epoch seconds. */
  exp: number;
}

export const TOKEN_LIFETIME_MS = 24 * 60 * 60_000;

export type TokenCheck = { ok: true; claims: VerifiedClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Signs and verifies the gateway's bearer tokens (HS256 with the secret generated into the data dir).
 * Built before the HTTP server, so the realtime hub and the HTTP guard verify through one place.
 * fast-jwt is the library @fastify/jwt wraps; using it directly removes that late binding.
 */
export class TokenService {
  readonly #sign: (claims: TokenClaims) => string;
  readonly #verify: (token: string) => VerifiedClaims;

  constructor(secret: string) {
    this.#sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: TOKEN_LIFETIME_MS });
    // Only HS256: a token signed with another algorithm, or none, is refused.
    this.#verify = createVerifier({ key: secret, algorithms: ['HS256'] });
  }

  issue(user: UserRow): string {
    return this.#sign({ sub: String(user.id), username: user.username, role: user.role, tv: user.tokenVersion });
  }

  check(token: string): TokenCheck {
    try {
      return { ok: true, claims: this.#verify(token) };
    } catch (err) {
      const expired = err instanceof TokenError && err.code === TokenError.codes.expired;
      return { ok: false, reason: expired ? 'expired' : 'invalid' };
    }
  }
}
