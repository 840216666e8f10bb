import { randomBytes } from 'node:crypto';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { Role } from '../contract/user.ts';
import type { UserRow } from './users-repo.ts';

/**
 * What a token carries. `tv` is the user's token version: a password or role change revokes older
 * tokens. `sat` is when the session began (the sign-in, epoch seconds): refreshes keep it, so a session
 * ends `sessionMaxDays` after the sign-in however often it is extended.
 */
export interface TokenClaims {
  sub: string;
  username: string;
  role: Role;
  tv: number;
  sat: number;
  /** The token's own id: sign-out and refresh revoke this one token (RevokedTokens). */
  jti: string;
}

export interface VerifiedClaims extends TokenClaims {
  /** Issued at, epoch seconds. */
  iat: number;
  /** Expiry, epoch seconds. */
  exp: number;
}

export const TOKEN_LIFETIME_MS = 24 * 60 * 60_000;

export type TokenCheck = { ok: true; claims: VerifiedClaims } | { ok: false; reason: 'expired' | 'invalid' };

export interface TokenServiceOptions {
  secret: string;
  /** A session (one sign-in and its refreshes) ends this long after the sign-in. */
  sessionMaxMs: number;
  /** Tokens revoked before their expiry (sign-out, refresh). */
  revoked: { has(tokenId: string): boolean };
}

/**
 * Signs and verifies the gateway's bearer tokens (HS256 with the secret generated into the data dir).
 * Built before the HTTP server, so the realtime hub and the HTTP guard verify through one place.
 * fast-jwt is the library @fastify/jwt wraps; using it directly removes that late binding.
 * Tokens live in wall-clock time (fast-jwt checks `exp` against Date.now), not the simulator's clock.
 */
export class TokenService {
  readonly #sign: (claims: TokenClaims & { exp: number }) => string;
  readonly #verify: (token: string) => VerifiedClaims;
  readonly #sessionMaxMs: number;
  readonly #revoked: TokenServiceOptions['revoked'];

  constructor(options: TokenServiceOptions) {
    this.#revoked = options.revoked;
    this.#sign = createSigner({ key: options.secret, algorithm: 'HS256' });
    // Only HS256: a token signed with another algorithm, or none, is refused; `exp` is required.
    this.#verify = createVerifier({ key: options.secret, algorithms: ['HS256'], requiredClaims: ['exp'] });
    this.#sessionMaxMs = options.sessionMaxMs;
  }

  /**
   * A token for `user`, valid TOKEN_LIFETIME_MS but never past the end of its session. `sessionStartedAtMs`
   * is the sign-in (now, for a sign-in; the old token's `sat`, for a refresh).
   */
  issue(user: UserRow, sessionStartedAtMs: number = Date.now()): string {
    const nowMs = Date.now();
    const endMs = Math.min(nowMs + TOKEN_LIFETIME_MS, sessionStartedAtMs + this.#sessionMaxMs);
    return this.#sign({
      sub: String(user.id),
      username: user.username,
      role: user.role,
      tv: user.tokenVersion,
      sat: Math.floor(sessionStartedAtMs / 1000),
      jti: randomBytes(16).toString('base64url'),
      exp: Math.floor(endMs / 1000),
    });
  }

  check(token: string): TokenCheck {
    let claims: VerifiedClaims;
    try {
      claims = this.#verify(token);
    } catch (err) {
      const expired = err instanceof TokenError && err.code === TokenError.codes.expired;
      return { ok: false, reason: expired ? 'expired' : 'invalid' };
    }
    // A token without a session start (or one from the future) is not one we issued.
    if (typeof claims.sat !== 'number' || !Number.isFinite(claims.sat) || claims.sat > claims.iat) return { ok: false, reason: 'invalid' };
    if (claims.sat * 1000 + this.#sessionMaxMs <= Date.now()) return { ok: false, reason: 'expired' };
    // Every token we issue has an id; one without cannot be revoked alone, so it is not accepted.
    if (typeof claims.jti !== 'string' || claims.jti === '' || this.#revoked.has(claims.jti)) return { ok: false, reason: 'invalid' };
    return { ok: true, claims };
  }
}
