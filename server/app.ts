import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import helmet from 'helmet';
import type { AppContext } from './context.ts';
import type { Feature } from './features.ts';
import { handleError, HttpError } from './http/errors.ts';
import { clientErrorAnswerer, frameworkErrorHandler, headersSetBy, MAX_PATH_PARAM_CHARS } from './http/framework-errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { makeGreenhouseGuard } from './http/greenhouse.ts';
import { capConnectionsPerAddress } from './http/connections-per-address.ts';
import { allowedHostNames, makeHostGuard } from './http/host-allow-list.ts';
import { registerDashboard } from './http/static.ts';
import { createLazySchemaCompilers, lazySchemaController } from './http/lazy-schema-compilers.ts';
import { createValidatorCompiler, refuseUndeclaredInput } from './http/validation.ts';

export interface HttpAppOptions {
  features: readonly Feature[];
  /** The guard of every authenticated route (the auth feature's). */
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** Folder of the built dashboard, or null to serve the API only. */
  webRoot: string | null;
}

const WS_MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * docs/decisions.md, Limits and headers: everything from the gateway itself, no inline script, no framing.
 * No `upgrade-insecure-requests` and no HSTS: the appliance speaks plain HTTP on the LAN, and an
 * upgrade would break every asset. `data:` images: the dashboard's empty favicon.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Builds the HTTP + websocket server: Fastify logging through the context's pino logger, one error
 * handler, then every feature's routes under /api (public, or behind the token guard), its root routes
 * (the websocket) and the dashboard.
 */
export async function buildHttpApp(ctx: AppContext, options: HttpAppOptions): Promise<FastifyInstance> {
  const { limits } = ctx.config;
  const schemaCompilers = createLazySchemaCompilers(createValidatorCompiler());
  // Built once: @fastify/helmet built Helmet's middleware again for every request, parsing the policy
  // each time (docs/performance.md, "A night on the gateway").
  const securityHeaders = helmet({ contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES }, strictTransportSecurity: false, frameguard: { action: 'deny' } });
  // What answers that no hook sees carry (http/framework-errors.ts).
  const fixedHeaders = { ...headersSetBy(securityHeaders), 'cache-control': 'no-store' };
  const app = Fastify({
    // pino's Logger is Fastify's logger; the cast keeps FastifyInstance's default generics for plugins.
    loggerInstance: ctx.logger as FastifyBaseLogger,
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: false,
    // Keep the process healthy under slowloris-style clients on the LAN: a whole request within a
    // minute, its headers within headersTimeoutMs (checked every second, not Node's default 30 s), and
    // an idle keep-alive connection closed after keepAliveTimeoutMs.
    requestTimeout: 60_000,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    // On shutdown, do not wait for idle or half-open connections: outputs are already safe, and the
    // systemd stop timeout must hold.
    forceCloseConnections: true,
    // Each route's schema is compiled on its first use, or comes from the build (http/lazy-schema-compilers.ts).
    schemaController: lazySchemaController(schemaCompilers),
    // Not two info lines for every request: six phones polling make a hundred thousand a day in the
    // journal, on the SD card, each serialised on the event loop. One debug line instead (below);
    // errors are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // A bad path or request answers in the envelope, naming what was wrong (http/framework-errors.ts).
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    frameworkErrors: frameworkErrorHandler(fixedHeaders),
    clientErrorHandler: clientErrorAnswerer(fixedHeaders, ctx.logger),
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (ctx.logger.isLevelEnabled('debug')) {
      request.log.debug({ method: request.method, url: request.url, statusCode: reply.statusCode, responseTimeMs: Math.round(reply.elapsedTime) }, 'request');
    }
    done();
  });
  // Beyond this many open connections Node drops new ones at accept, before they cost a file descriptor
  // each for long: health and sign-in stay reachable for the rest.
  app.server.maxConnections = limits.connectionsTotal;
  capConnectionsPerAddress(app.server, limits.connectionsPerAddress);
  app.decorate('compileAllSchemas', schemaCompilers.compileAll);
  // A route's first request waits while its schemas are made, one per turn (http/lazy-schema-compilers.ts).
  app.addHook('preValidation', (request, _reply, done) => {
    const ready = schemaCompilers.prepareRoute(request.routeOptions.method, request.routeOptions.url);
    if (ready === null) done();
    else ready.then(() => done(), done);
  });
  app.addHook('onRoute', refuseUndeclaredInput);
  registerJsonBodyParser(app);
  app.setErrorHandler(handleError);
  // Answers about accounts, devices and readings are never kept by a browser or a proxy: every /api
  // answer, the 404s and errors of unknown routes included (hence here and not on the /api plugin).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
    return payload;
  });
  // Addresses can change (DHCP), so the list is rebuilt at most once a minute rather than once.
  let hosts = { names: allowedHostNames({ listenHost: ctx.config.host, allowedHosts: [...ctx.config.allowedHosts, ...ctx.config.https.hostNames] }), builtAtMs: performance.now() };
  app.addHook('onRequest', makeHostGuard(() => {
    if (performance.now() - hosts.builtAtMs > 60_000) {
      hosts = { names: allowedHostNames({ listenHost: ctx.config.host, allowedHosts: [...ctx.config.allowedHosts, ...ctx.config.https.hostNames] }), builtAtMs: performance.now() };
    }
    return hosts.names;
  }));
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined)));

  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many requests, try again in ${Math.ceil(context.ttl / 1000)} seconds`),
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: WS_MAX_MESSAGE_BYTES },
    // A client's bad frame (too large, not masked, cut off) is the client's fault, often a stranger's:
    // one line with its code, never a stack trace per frame (which an attacker could use to flood the log).
    errorHandler: (error, socket, request) => {
      const code = (error as Error & { code?: string }).code;
      request.log.warn({ code, reason: error.message.slice(0, 200) }, 'websocket closed on a client error');
      socket.terminate();
    },
  });

  const greenhouseGuard = makeGreenhouseGuard(ctx.resolveGreenhouse);
  await app.register(
    async (api) => {
      for (const feature of options.features) await feature.registerPublicRoutes?.(api);
      // Everything in `authenticated` needs a valid token; `:greenhouseId` must name this greenhouse.
      await api.register(async (authenticated) => {
        authenticated.addHook('onRequest', options.authenticate);
        authenticated.addHook('preHandler', greenhouseGuard);
        for (const feature of options.features) await feature.registerRoutes?.(authenticated);
      });
    },
    { prefix: '/api' },
  );
  for (const feature of options.features) await feature.registerRootRoutes?.(app);
  await registerDashboard(app, options.webRoot);
  return app;
}
