import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FailureEnvelope } from '../contract/common.ts';
import type { Preferences, RegistrationMode, Role } from '../contract/user.ts';
import { isStorageRefusal } from '../db/storage-refusal.ts';
import { badRequest, conflict, forbidden, HttpError, unauthorized } from '../http/errors.ts';
import { ok } from '../http/reply.ts';
import type { AccountBackoff } from './account-backoff.ts';
import { accountFromClaims, bearerToken, isPending, PENDING_REFUSAL } from './guard.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { passwordProblem } from './password-rules.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { DemoReply, LoggedOutReply, LoginBody, PasswordBody, ProfileBody, RegisterBody, SessionReply, UserReply } from './schemas.ts';
import { SETUP_CODE_FILE, type SetupCode } from './setup-code.ts';
import type { TokenService, VerifiedClaims } from './tokens.ts';
import type { UserRow, UsersRepo } from './users-repo.ts';

export interface AuthRoutesOptions {
  users: UsersRepo;
  tokens: TokenService;
  /**
   * Failed sign-ins per client and account, and (a looser bound) per client over all accounts;
   * per account over every address, with back-off; self-registrations per client.
   */
  limiters: { perAccount: LoginLimiter; perClient: LoginLimiter; accountWide: AccountBackoff; registrations: LoginLimiter };
  /** The guard of /api/auth's own routes: a pending account passes (its profile and session). */
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** Who may self-register (config `registration`). */
  registration: RegistrationMode;
  /** The first run's one-time code (the first registration must carry it). */
  setupCode: SetupCode;
  demo: { username: string; password: string } | null;
  /** Credentials never accepted (the demo account's, when demo is off). */
  refusedCredentials: { username: string; password: string } | null;
  /** Tells the rest of the gateway (the websocket hub) that an account's older tokens were revoked. */
  revoked: (accountId: number, reason: string) => void;
  /** Revokes one token (sign-out, refresh); on sign-out its sockets close too. */
  revokeToken: (account: UserRow, claims: VerifiedClaims, reason: string, closeSockets: boolean) => UserRow;
  /** The first admin was created: the owner's log says so. */
  firstAdminCreated: (account: UserRow) => void;
  /** Coarse per-client cap on sign-in requests, failed or not (requests per minute). */
  requestsPerMinute: number;
}

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 409: FailureEnvelope, 429: FailureEnvelope };

export async function authRoutes(fastify: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { users, tokens, limiters, authenticate } = options;
  const rateLimit = { max: options.requestsPerMinute, timeWindow: 60_000 };

  const session = (account: UserRow, message: string, sessionStartedAtMs?: number) => {
    const token = tokens.issue(account, sessionStartedAtMs);
    const user = users.toPublic(account);
    return { success: true as const, message, data: { token, user }, token, user };
  };

  app.post('/register', {
    schema: { body: RegisterBody, response: { 201: SessionReply, ...failures } },
  }, async (request, reply) => {
    const { username, email, password, setupCode } = request.body;
    const asked: Role = request.body.role ?? 'operator';
    const weak = passwordProblem(password, username);
    if (weak) throw badRequest(weak, 'password');
    const byAdmin = signedInAdmin(request);

    // First run: nobody can approve anyone yet, so the first account is the admin, and only whoever
    // holds the setup code (the data dir, the log) may create it.
    if (!byAdmin && users.count() === 0) {
      if (!options.setupCode.matches(setupCode)) {
        throw forbidden(`This gateway has no administrator yet: send the setup code from the file ${SETUP_CODE_FILE} in its data directory (also printed in its log) as setupCode`);
      }
      const first = users.createFirstAdmin({ username, email, passwordHash: await hashPassword(password) });
      if (!first) throw conflict('The first administrator was created a moment ago: sign in, or register again to ask for access');
      options.firstAdminCreated(first);
      return reply.status(201).send(session(users.recordLogin(first.id), 'Registration successful'));
    }

    let role: Role = asked;
    let requestedRole: Role | null = null;
    // A signed-in admin creating an account gives it the asked role. Everyone else is a
    // self-registration, ruled by config `registration`.
    if (!byAdmin) {
      if (options.registration === 'closed') {
        throw forbidden('Self-registration is closed on this gateway: ask an administrator for an account');
      }
      if (asked === 'admin') throw forbidden('Only a signed-in admin can create an admin account');
      const waitSeconds = limiters.registrations.retryAfterSeconds(request.ip);
      if (waitSeconds > 0) throw new HttpError(429, `Too many registrations from this address, try again in ${waitSeconds} seconds`);
      limiters.registrations.record(request.ip);
      // approval: pending (even a viewer) until an admin grants a role; open: a viewer at once.
      role = 'viewer';
      requestedRole = options.registration === 'approval' ? asked : null;
    }
    if (users.findByUsername(username)) throw conflict(`Username '${username}' is already taken`);
    const passwordHash = await hashPassword(password);
    let account: UserRow;
    try {
      account = users.create({ username, email, passwordHash, role, requestedRole });
    } catch (err) {
      // Two registrations of one name at once: the unique index decides.
      if (String((err as Error).message).includes('UNIQUE')) throw conflict(`Username '${username}' is already taken`);
      throw err;
    }
    account = users.recordLogin(account.id);
    const message = requestedRole ? 'Registration successful: an administrator must approve your account' : 'Registration successful';
    return reply.status(201).send(session(account, message));
  });

  app.post('/login', {
    schema: { body: LoginBody, response: { 200: SessionReply, ...failures } },
    config: { rateLimit },
  }, async (request) => {
    const client = request.ip;
    const name = request.body.username.toLowerCase();
    const account = `${client}|${name}`;
    const waitSeconds = Math.max(
      limiters.perAccount.retryAfterSeconds(account),
      limiters.perClient.retryAfterSeconds(client),
      limiters.accountWide.retryAfterSeconds(name),
    );
    if (waitSeconds > 0) {
      throw new HttpError(429, `Too many failed sign-in attempts, try again in ${waitSeconds} seconds`);
    }
    const user = users.findByUsername(request.body.username);
    // Spend the same time whether or not the user exists, so usernames cannot be probed by timing.
    const valid = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, request.body.password);
    if (!user || !valid || isRefused(request.body.username, request.body.password)) {
      limiters.perAccount.recordFailure(account);
      limiters.perClient.recordFailure(client);
      limiters.accountWide.recordFailure(name);
      throw unauthorized('Invalid username or password');
    }
    limiters.perAccount.recordSuccess(account);
    limiters.accountWide.recordSuccess(name);
    return session(recordedSignIn(user, request), 'Login successful');
  });

  /**
   * The account with its sign-in recorded. On a storage that refuses writes (a full SD card) the grower
   * still gets in, unrecorded: that is when the dashboard is needed most (docs/storage.md, "When the
   * storage refuses a write").
   */
  function recordedSignIn(user: UserRow, request: FastifyRequest): UserRow {
    try {
      return users.recordLogin(user.id);
    } catch (err) {
      if (!isStorageRefusal(err)) throw err;
      request.log.warn({ username: user.username, err: err.message }, 'sign-in not recorded: the storage refuses writes');
      return user;
    }
  }

  app.get('/demo', { schema: { response: { 200: DemoReply } } }, async () => {
    const setupRequired = users.count() === 0;
    return ok(options.demo ? { enabled: true, setupRequired, ...options.demo } : { enabled: false, setupRequired });
  });

  app.register(async (privateRoutes) => {
    const authed = privateRoutes.withTypeProvider<TypeBoxTypeProvider>();
    authed.addHook('preHandler', authenticate);

    authed.get('/me', { schema: { response: { 200: UserReply, ...failures } } }, async (request) =>
      ok(users.toPublic(request.account!)),
    );

    // A pending account may not set where alert e-mail goes: it is nobody's to mail yet.
    authed.put('/profile', { schema: { body: ProfileBody, response: { 200: UserReply, ...failures } }, preHandler: refusePending }, async (request) => {
      const account = request.account!;
      const { email, preferences } = request.body;
      const changes: Partial<Pick<UserRow, 'email' | 'preferences'>> = {};
      if (email !== undefined) changes.email = email;
      if (preferences !== undefined) {
        changes.preferences = { ...users.toPublic(account).preferences, ...preferences } satisfies Preferences;
      }
      return ok(users.toPublic(users.update(account.id, changes)), 'Profile updated successfully');
    });

    const changePassword = async (request: FastifyRequest<{ Body: { currentPassword: string; newPassword: string } }>) => {
      const account = request.account!;
      if (!(await verifyPassword(account.passwordHash, request.body.currentPassword))) {
        // 400, not 401: the session is fine, the form is wrong.
        throw badRequest('currentPassword is incorrect', 'currentPassword');
      }
      if (request.body.currentPassword === request.body.newPassword) {
        throw badRequest('newPassword must differ from the current password', 'newPassword');
      }
      const weak = passwordProblem(request.body.newPassword, account.username);
      if (weak) throw badRequest(`new${weak[0]!.toUpperCase()}${weak.slice(1)}`, 'newPassword');
      const updated = users.update(account.id, {
        passwordHash: await hashPassword(request.body.newPassword),
        // Revokes every other session's token (and their sockets); this one gets a fresh token below.
        tokenVersion: account.tokenVersion + 1,
      });
      options.revoked(account.id, 'Password changed, please sign in again');
      return session(updated, 'Password updated successfully');
    };
    const passwordRoute = { schema: { body: PasswordBody, response: { 200: SessionReply, ...failures } } };
    authed.put('/password', passwordRoute, changePassword);
    authed.post('/change-password', passwordRoute, changePassword);

    // A refresh keeps the session's start: the session still ends sessionMaxDays after the sign-in.
    // The old token is revoked, so a copy of it left in a browser or a log is worth nothing.
    authed.post('/refresh', { schema: { response: { 200: SessionReply, ...failures } } }, async (request) => {
      const account = options.revokeToken(request.account!, request.tokenClaims!, 'Session extended', false);
      return session(account, 'Session extended', request.tokenClaims!.sat * 1000);
    });

    authed.post('/logout', { schema: { response: { 200: LoggedOutReply, ...failures } } }, async (request) => {
      options.revokeToken(request.account!, request.tokenClaims!, 'Signed out', true);
      return ok(null, 'Logged out successfully');
    });
  });

  async function refusePending(request: FastifyRequest): Promise<void> {
    if (request.account && isPending(request.account)) throw forbidden(PENDING_REFUSAL);
  }

  function isRefused(username: string, password: string): boolean {
    const refused = options.refusedCredentials;
    return refused !== null && username.toLowerCase() === refused.username.toLowerCase() && password === refused.password;
  }

  function signedInAdmin(request: FastifyRequest): boolean {
    const token = bearerToken(request.headers.authorization);
    const checked = token ? tokens.check(token) : null;
    return checked?.ok === true && accountFromClaims(users, checked.claims)?.role === 'admin';
  }
}

// A valid argon2id hash of a random string, used to spend the same time on unknown usernames.
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$JOrmH5EyStnHxrooPzpS5w$DpXp1olB+7hyv7e2U/60X6MJGgMpJLuTc7zsFNtulis';
