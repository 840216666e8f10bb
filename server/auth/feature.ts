import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { AccountBackoff } from './account-backoff.ts';
import { accountFromClaims, bearerToken, isPending, makeAuthenticate } from './guard.ts';
import { loadOrCreateJwtSecret } from './jwt-secret.ts';
import { LoginLimiter } from './login-limiter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { RevokedTokens } from './revoked-tokens.ts';
import { authRoutes } from './routes.ts';
import { SetupCode } from './setup-code.ts';
import { TokenService, type VerifiedClaims } from './tokens.ts';
import { UsersRepo, type UserRow } from './users-repo.ts';

/** The demo admin of simulator mode (docs/decisions.md: GREENHOUSE_DEMO); shown on the login screen. */
export const DEMO_ACCOUNT = { username: 'admin', password: 'greenhouse' } as const;

/**
 * DEMO_ACCOUNT.password hashed once with the gateway's argon2id options (checked by
 * tests/unit/server/demo-password-hash.test.ts). The password is public, so a fixed salt gives nothing
 * away, and a fresh simulator creates its demo account without loading argon2 to hash 19 MiB at start.
 */
export const DEMO_PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$UxGeJKnp9rhXonVvGKZwKA$dbPys00w5eGjHA9/0Bj/1awm7oC8YgNle6tB7MSyuas';

/** Coarse per-client cap on sign-in requests, failed or not. */
const LOGIN_REQUESTS_PER_MINUTE = 300;

const DAY_MS = 24 * 60 * 60_000;

/**
 * Failed sign-ins of one account from all addresses before it waits (1 s, doubling per failure, at most
 * 15 min): ten guesses per address from three addresses no longer go unanswered.
 */
const ACCOUNT_BACKOFF = { freeFailures: 10, baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };

export interface AuthFeature extends Feature {
  users: UsersRepo;
  tokens: TokenService;
  /** The onRequest hook of every authenticated route: a valid, unrevoked bearer token. */
  authenticate(request: FastifyRequest): Promise<void>;
  /**
   * Whether a public route's caller is a granted account (a valid token of a non-pending account);
   * never throws: a public route answers everyone, only with less for strangers.
   */
  isSignedIn(request: FastifyRequest): boolean;
}

/** Accounts, sign-in, tokens and the demo account: /api/auth. */
export function createAuthFeature(ctx: AppContext): AuthFeature {
  const { config, clock, database, bus } = ctx;
  const logger = featureLogger(ctx, 'auth');
  const users = new UsersRepo({ db: database.db, greenhouseId: config.greenhouseId, clock });
  const revokedTokens = new RevokedTokens(config.dataDir, (err) =>
    logger.warn({ err: err.message }, 'a revoked token is held in memory only: the storage refuses writes'),
  );
  const tokens = new TokenService({ secret: loadOrCreateJwtSecret(config.dataDir), sessionMaxMs: config.sessionMaxDays * DAY_MS, revoked: revokedTokens });
  const authenticate = makeAuthenticate(users, tokens, { allowPending: false });
  const setupCode = new SetupCode(config.dataDir);
  const limiters = {
    perAccount: new LoginLimiter(config.loginRateLimit.max, config.loginRateLimit.windowMs, clock),
    // Guessing across many usernames from one client is stopped too, at a looser bound.
    perClient: new LoginLimiter(config.loginRateLimit.max * 3, config.loginRateLimit.windowMs, clock),
    accountWide: new AccountBackoff({ ...ACCOUNT_BACKOFF, clock }),
    registrations: new LoginLimiter(config.registrationRateLimit.max, config.registrationRateLimit.windowMs, clock),
  };

  /**
   * Revokes one token (sign-out, refresh) and closes the sockets it opened. An account that has revoked
   * too many at once loses every token instead (RevokedTokens stays small); returns the account as it
   * now is, for the refresh's new token.
   */
  function revokeToken(account: UserRow, claims: VerifiedClaims, reason: string, closeSockets: boolean): UserRow {
    const outcome = revokedTokens.revoke({ id: claims.jti, accountId: account.id, exp: claims.exp }, Math.floor(Date.now() / 1000));
    if (outcome === 'account-full') {
      const updated = users.update(account.id, { tokenVersion: account.tokenVersion + 1 });
      revokedTokens.forgetAccount(account.id);
      bus.emit('accountRevoked', { accountId: account.id, reason });
      return updated;
    }
    // A refresh leaves the sockets of its old token open: they belong to the same session, which the
    // dashboard carries on with the new token (closing them would read as a sign-out there).
    if (closeSockets) bus.emit('accountRevoked', { accountId: account.id, reason, tokenId: claims.jti });
    return account;
  }

  function isSignedIn(request: FastifyRequest): boolean {
    try {
      const token = bearerToken(request.headers.authorization);
      const checked = token ? tokens.check(token) : null;
      const account = checked?.ok ? accountFromClaims(users, checked.claims) : null;
      return account !== null && !isPending(account);
    } catch {
      // The database may be what is broken: then the caller is simply not known.
      return false;
    }
  }

  return {
    name: 'auth',
    users,
    tokens,
    authenticate,
    isSignedIn,
    async registerPublicRoutes(api) {
      await api.register(authRoutes, {
        prefix: '/auth',
        users,
        tokens,
        limiters,
        authenticate: makeAuthenticate(users, tokens, { allowPending: true }),
        registration: config.registration,
        setupCode,
        revokeToken,
        firstAdminCreated: (account) => {
          setupCode.remove();
          logger.info({ username: account.username }, 'first administrator created; the setup code is spent');
        },
        demo: config.demo ? { ...DEMO_ACCOUNT } : null,
        refusedCredentials: config.demo ? null : { ...DEMO_ACCOUNT },
        revoked: (accountId, reason) => bus.emit('accountRevoked', { accountId, reason }),
        requestsPerMinute: LOGIN_REQUESTS_PER_MINUTE,
      });
    },
    async start() {
      if (!config.demo && users.count() === 0) {
        const code = setupCode.ensure();
        // The owner reads it here (journalctl) or in the data dir; it is spent by the first admin.
        logger.warn({ setupCode: code, file: setupCode.path }, `first run: register the administrator with setup code ${code}`);
      }
      const demoAccount = users.findByUsername(DEMO_ACCOUNT.username);
      if (!config.demo) {
        // Started with demo off, the demo password must stop working: an account that still has it
        // gets an unguessable one (its owner sets a new one through an admin) and loses its sessions.
        const stillDemoPassword = async (passwordHash: string) =>
          passwordHash === DEMO_PASSWORD_HASH || (await verifyPassword(passwordHash, DEMO_ACCOUNT.password));
        if (demoAccount && (await stillDemoPassword(demoAccount.passwordHash))) {
          users.update(demoAccount.id, {
            passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
            tokenVersion: demoAccount.tokenVersion + 1,
          });
          logger.warn({ username: demoAccount.username }, 'demo is off: the demo account\'s password no longer works');
        }
        return;
      }
      if (demoAccount) return;
      users.create({
        username: DEMO_ACCOUNT.username,
        email: 'admin@greenhouse.local',
        passwordHash: DEMO_PASSWORD_HASH,
        role: 'admin',
      });
      logger.info({ username: DEMO_ACCOUNT.username }, 'demo account created');
    },
  };
}
