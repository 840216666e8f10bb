import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { makeAuthenticate } from './guard.ts';
import { loadOrCreateJwtSecret } from './jwt-secret.ts';
import { LoginLimiter } from './login-limiter.ts';
import { hashPassword } from './passwords.ts';
import { authRoutes } from './routes.ts';
import { TokenService } from './tokens.ts';
import { UsersRepo } from './users-repo.ts';

/** The demo admin of simulator mode (design.md: GREENHOUSE_DEMO); shown on the login screen. */
export const DEMO_ACCOUNT = { username: 'admin', password: 'greenhouse' } as const;

/** Coarse per-client cap on sign-in requests, failed or not. */
const LOGIN_REQUESTS_PER_MINUTE = 300;

export interface AuthFeature extends Feature {
  users: UsersRepo;
  tokens: TokenService;
  /** The onRequest hook of every authenticated route: a valid, unrevoked bearer token. */
  authenticate(request: FastifyRequest): Promise<void>;
}

/** Accounts, sign-in, tokens and the demo account: /api/auth. */
export function createAuthFeature(ctx: AppContext): AuthFeature {
  const { config, clock, database } = ctx;
  const logger = featureLogger(ctx, 'auth');
  const users = new UsersRepo({ db: database.db, greenhouseId: config.greenhouseId, clock });
  const tokens = new TokenService(loadOrCreateJwtSecret(config.dataDir));
  const authenticate = makeAuthenticate(users, tokens);
  const limiters = {
    perAccount: new LoginLimiter(config.loginRateLimit.max, config.loginRateLimit.windowMs, clock),
    // Guessing across many usernames from one client is stopped too, at a looser bound.
    perClient: new LoginLimiter(config.loginRateLimit.max * 3, config.loginRateLimit.windowMs, clock),
  };

  return {
    name: 'auth',
    users,
    tokens,
    authenticate,
    async registerPublicRoutes(api) {
      await api.register(authRoutes, {
        prefix: '/auth',
        users,
        tokens,
        limiters,
        authenticate,
        demo: config.demo ? { ...DEMO_ACCOUNT } : null,
        requestsPerMinute: LOGIN_REQUESTS_PER_MINUTE,
      });
    },
    async start() {
      if (!config.demo || users.findByUsername(DEMO_ACCOUNT.username)) return;
      users.create({
        username: DEMO_ACCOUNT.username,
        email: 'admin@greenhouse.local',
        passwordHash: await hashPassword(DEMO_ACCOUNT.password),
        role: 'admin',
      });
      logger.info({ username: DEMO_ACCOUNT.username }, 'demo account created');
    },
  };
}
