import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { ScaledClock, SystemClock, type Clock } from '../drivers/clock.ts';
import { createHardware, type Hardware, type SimulatorHardware } from '../drivers/index.ts';
import { buildApp } from './app.ts';
import { accountFromClaims } from './auth/guard.ts';
import { loadOrCreateJwtSecret } from './auth/jwt-secret.ts';
import { LoginLimiter } from './auth/login-limiter.ts';
import { hashPassword } from './auth/passwords.ts';
import type { TokenClaims } from './auth/tokens.ts';
import { UsersRepo } from './auth/users-repo.ts';
import { loadConfig, type ResolvedConfig } from './config/load.ts';
import type { Config } from './config/schema.ts';
import { openDatabase, type OpenedDatabase } from './db/open.ts';
import { EventBus } from './events/bus.ts';
import { createHealthFeature, packageVersion } from './appliance/health-feature.ts';
import { cpuTemperatureReader } from './appliance/health.ts';
import type { Feature } from './features.ts';
import { makeGreenhouseResolver } from './http/greenhouse.ts';
import { createDevicesFeature } from './devices/feature.ts';
import type { ControlService } from './devices/control-service.ts';
import { bridgeBusToHub } from './realtime/bridge.ts';
import { RealtimeHub, type HubOptions } from './realtime/hub.ts';
import { SettingsService } from './settings/settings-service.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { DataLifecycle } from './lifecycle/data-lifecycle.ts';
import { createAlertsFeature } from './alerts/feature.ts';
import { createSensorsFeature } from './sensors/feature.ts';
import type { SamplingLoop } from './sensors/sampling-loop.ts';

export interface GatewayOptions {
  /** Environment variables to read (default: none, so tests are not affected by the shell's). */
  env?: Record<string, string | undefined>;
  /** Config values that win over the environment and the config file. */
  overrides?: Partial<Config>;
  clock?: Clock;
  /** Hardware to use instead of building it from config (tests inject fakes here). */
  hardware?: Hardware;
  logger?: FastifyServerOptions['logger'];
  hubOptions?: Partial<HubOptions>;
  /** Folder of the built dashboard; default web/dist when it exists. */
  webRoot?: string | null;
}

export interface Gateway {
  config: ResolvedConfig;
  app: FastifyInstance;
  clock: Clock;
  /** The sensors and outputs; `simulator` is set in simulator mode (fault injection, true state). */
  hardware: Hardware & { simulator?: SimulatorHardware['simulator'] };
  bus: EventBus;
  database: OpenedDatabase;
  users: UsersRepo;
  settings: SettingsService;
  /** Retention pruning and automatic backups (pruneNow/backupNow/idle for tests and tools). */
  lifecycle: DataLifecycle;
  hub: RealtimeHub;
  /** The one path for every device state change (users, rules, safety, system). */
  control: ControlService;
  /** The sampling loop: snapshot() of the newest values, lastSampleAt(sensorType), health(). */
  sampler: SamplingLoop;
  /** http://host:port once started. */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_WEB_ROOT = join(REPO_ROOT, 'web', 'dist');

/** The demo admin of simulator mode (design.md: GREENHOUSE_DEMO); shown on the login screen. */
export const DEMO_ACCOUNT = { username: 'admin', password: 'greenhouse' } as const;

/**
 * The composition root: builds every part of the gateway from config. `main.ts` calls it with the
 * process environment; tests call it with a temp data dir and fakes for the hardware.
 */
export async function createGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const config = loadConfig(options.env ?? {}, options.overrides);
  const clock = options.clock ?? clockFor(config);
  const now = () => clock.now();
  const logger = options.logger ?? false;

  // Outputs go to their safe state before anything else happens (an active-low relay board may have
  // clicked on at boot): createHardware resolves only once every relay is off and the window closed.
  const hardware = options.hardware ?? (await createHardware({
    mode: config.hardware,
    clock,
    sensors: config.sensors,
    outputs: config.outputs,
    simulator: config.simulator,
    log: (level, msg, obj) => console[level === 'debug' ? 'log' : level](`[drivers] ${msg}`, obj ?? ''),
  }));
  if (options.hardware) await hardware.safeState();

  const database = openDatabase(config.dataDir);
  if (clock instanceof ScaledClock) clock.resumeAfter(latestRecordMs(database));
  const jwtSecret = loadOrCreateJwtSecret(config.dataDir);
  const bus = new EventBus({ error: (obj, msg) => console.error(msg, obj) });
  const users = new UsersRepo(database.db, config.greenhouseId, now);
  const settings = new SettingsService(database.db, bus, config.greenhouseId, now);
  const resolveGreenhouse = makeGreenhouseResolver(config.greenhouseId);

  if (config.demo && !users.findByUsername(DEMO_ACCOUNT.username)) {
    users.create({
      username: DEMO_ACCOUNT.username,
      email: 'admin@greenhouse.local',
      passwordHash: await hashPassword(DEMO_ACCOUNT.password),
      role: 'admin',
    });
  }

  let app: FastifyInstance | null = null;
  const hub = new RealtimeHub({
    verifyToken: (token) => {
      try {
        const claims = app!.jwt.verify<TokenClaims & { exp: number }>(token);
        const account = accountFromClaims(users, claims);
        return account ? { account, expiresAtMs: claims.exp * 1000 } : null;
      } catch {
        return null;
      }
    },
    reloadAccount: (account) => {
      const fresh = users.findById(account.id);
      return fresh && fresh.tokenVersion === account.tokenVersion ? fresh : null;
    },
    toPublicUser: (account) => users.toPublic(account),
    resolveGreenhouse,
    logger: { warn: (obj, msg) => app?.log.warn(obj, msg), error: (obj, msg) => app?.log.error(obj, msg) },
    options: options.hubOptions,
  });

  const devices = createDevicesFeature({
    db: database.db,
    bus,
    hub,
    settings,
    clock,
    greenhouseId: config.greenhouseId,
    outputConfigs: config.outputs,
    outputs: hardware.outputs,
    resolveGreenhouse,
    log: { info: (obj, msg) => app?.log.info(obj, msg), error: (obj, msg) => app?.log.error(obj, msg) },
  });
  const alertsLogger = { warn: (obj: object, msg: string) => app?.log.warn(obj, msg), error: (obj: object, msg: string) => app?.log.error(obj, msg) };
  const alerts = createAlertsFeature({ db: database.db, bus, settings, greenhouseId: config.greenhouseId, smtp: config.smtp, now, logger: alertsLogger });
  const lifecycle = new DataLifecycle({
    sqlite: database.sqlite,
    dataDir: config.dataDir,
    settings,
    bus,
    clock,
    logger: { info: (obj, msg) => app?.log.info(obj, msg), error: (obj, msg) => app?.log.error(obj, msg) },
  });
  const analytics: Feature = {
    name: 'analytics',
    routes: [{ prefix: '/analytics', plugin: analyticsRoutes, options: { dbPath: database.path, now } }],
  };
  const sensors = createSensorsFeature({
    sqlite: database.sqlite,
    bus,
    settings,
    clock,
    greenhouseId: config.greenhouseId,
    sensors: hardware,
    log: { error: (obj, msg) => app?.log.error(obj, msg) },
  });
  const builtAtMs = performance.now();
  const health = createHealthFeature({
    nowMs: now,
    uptimeSeconds: () => (performance.now() - builtAtMs) / 1000,
    checkDatabase: () => void database.sqlite.prepare('SELECT 1').get(),
    driverStatus: () => hardware.status(),
    lastSampleAt: (sensorType) => sensors.sampler.lastSampleAt(sensorType),
    samplerHealthy: () => sensors.sampler.healthy(),
    cpuTemperatureC: cpuTemperatureReader(),
    version: packageVersion(),
    hardwareMode: config.hardware,
  });
  // The sampler starts last (and stops first), once every consumer of its ticks is listening.
  const features: Feature[] = [health, devices, alerts, lifecycle, analytics, sensors];

  const webRoot = options.webRoot === undefined ? (existsSync(DEFAULT_WEB_ROOT) ? DEFAULT_WEB_ROOT : null) : options.webRoot;
  app = await buildApp({
    config,
    jwtSecret,
    users,
    limiters: {
      perAccount: new LoginLimiter(config.loginRateLimit.max, config.loginRateLimit.windowMs, now),
      // Guessing across many usernames from one client is stopped too, at a looser bound.
      perClient: new LoginLimiter(config.loginRateLimit.max * 3, config.loginRateLimit.windowMs, now),
    },
    settings,
    hub,
    resolveGreenhouse,
    features,
    webRoot,
    demoAccount: config.demo ? { ...DEMO_ACCOUNT } : null,
    logger,
  });

  let unbridge: (() => void) | null = null;
  const gateway: Gateway = {
    config,
    app,
    clock,
    hardware,
    bus,
    database,
    users,
    settings,
    lifecycle,
    hub,
    control: devices.control,
    sampler: sensors.sampler,
    url: '',
    async start() {
      unbridge = bridgeBusToHub(bus, hub);
      hub.start();
      for (const feature of features) await feature.start?.();
      await app!.listen({ port: config.port, host: config.host });
      const address = app!.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      gateway.url = `http://${host}:${port}`;
    },
    async stop() {
      hub.stop();
      for (const feature of [...features].reverse()) await feature.stop?.();
      unbridge?.();
      // Outputs safe first: a slow HTTP close must not leave a pump running.
      await hardware.safeState();
      await app!.close();
      await hardware.close();
      database.close();
    },
  };
  return gateway;
}

/** The newest timestamp the gateway has written, or null in a fresh database. */
function latestRecordMs(database: OpenedDatabase): number | null {
  const row = database.sqlite
    .prepare('SELECT max(m) AS m FROM (SELECT max(taken_at) AS m FROM readings UNION ALL SELECT max(created_at) FROM control_log)')
    .get() as { m: number | null };
  return row.m;
}

/** Simulator mode may run faster than real time, from a chosen start (demos, soak tests). */
function clockFor(config: ResolvedConfig): Clock {
  const { timeScale, startAt } = config.simulator;
  if (config.hardware !== 'simulator' || (timeScale === 1 && startAt === undefined)) return new SystemClock();
  return new ScaledClock(startAt ? Date.parse(startAt) : Date.now(), timeScale);
}
