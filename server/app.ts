import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import { makeAuthenticate } from './auth/guard.ts';
import type { LoginLimiter } from './auth/login-limiter.ts';
import { authRoutes } from './auth/routes.ts';
import type { UsersRepo } from './auth/users-repo.ts';
import type { ResolvedConfig } from './config/load.ts';
import type { Feature } from './features.ts';
import { handleError, HttpError } from './http/errors.ts';
import { makeGreenhouseGuard } from './http/greenhouse.ts';
import { registerDashboard } from './http/static.ts';
import { createValidatorCompiler } from './http/validation.ts';
import type { RealtimeHub } from './realtime/hub.ts';
import { realtimeRoutes } from './realtime/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import type { SettingsService } from './settings/settings-service.ts';

export interface AppDeps {
  config: ResolvedConfig;
  jwtSecret: string;
  users: UsersRepo;
  limiters: { perAccount: LoginLimiter; perClient: LoginLimiter };
  settings: SettingsService;
  hub: RealtimeHub;
  resolveGreenhouse: (id: string) => string | null;
  features: Feature[];
  /** Folder of the built dashboard, or null to serve the API only. */
  webRoot: string | null;
  demoAccount: { username: string; password: string } | null;
  logger: FastifyServerOptions['logger'];
}

const WS_MAX_MESSAGE_BYTES = 64 * 1024;

/** Builds the HTTP + websocket application. Tests build it in-process with their own dependencies. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: false,
    // Keep the process healthy under slowloris-style clients on the LAN.
    requestTimeout: 60_000,
    // On shutdown, do not wait for idle or half-open connections: outputs are already safe, and the
    // systemd stop timeout must hold.
    forceCloseConnections: true,
    ajv: { customOptions: { coerceTypes: false } },
  });
  app.setValidatorCompiler(createValidatorCompiler());
  app.setErrorHandler(handleError);

  await app.register(fastifyJwt, { secret: deps.jwtSecret });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many requests, try again in ${Math.ceil(context.ttl / 1000)} seconds`),
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: WS_MAX_MESSAGE_BYTES } });

  const authenticate = makeAuthenticate(deps.users);
  const greenhouseGuard = makeGreenhouseGuard(deps.resolveGreenhouse);

  await app.register(
    async (api) => {
      await api.register(authRoutes, {
        prefix: '/auth',
        users: deps.users,
        limiters: deps.limiters,
        authenticate,
        demo: deps.demoAccount,
        requestsPerMinute: 300,
      });
      for (const feature of deps.features) {
        for (const route of feature.publicRoutes ?? []) {
          await api.register(route.plugin, { prefix: route.prefix, ...route.options });
        }
      }
      // Everything else under /api needs a valid token; `:greenhouseId` must name this greenhouse.
      await api.register(async (authed) => {
        authed.addHook('onRequest', authenticate);
        authed.addHook('preHandler', greenhouseGuard);
        await authed.register(settingsRoutes, { prefix: '/settings', settings: deps.settings });
        for (const feature of deps.features) {
          for (const route of feature.routes ?? []) {
            await authed.register(route.plugin, { prefix: route.prefix, ...route.options });
          }
        }
      });
    },
    { prefix: '/api' },
  );

  await app.register(realtimeRoutes, { hub: deps.hub });
  await registerDashboard(app, deps.webRoot);
  return app;
}
