import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { monotonicMs, ScaledClock, SystemClock, type Clock } from '../common/clock.ts';
import { createHardware, type Hardware } from '../drivers/index.ts';
import { buildHttpApp } from './app.ts';
import { ensurePrivateDataDir } from './db/data-dir.ts';
import { createHealthFeature } from './health/feature.ts';
import { createHttpsFeature } from './https/feature.ts';
import { createPushFeature, type PushFeature, type PushFeatureOptions } from './push/feature.ts';
import { packageRoot } from './package-root.ts';
import { createAlertsFeature } from './alerts/feature.ts';
import { createAnalyticsFeature } from './analytics/feature.ts';
import { createAuthFeature } from './auth/feature.ts';
import type { UsersRepo } from './auth/users-repo.ts';
import { loadConfig, type ResolvedConfig } from './config/load.ts';
import type { Config } from './config/schema.ts';
import type { AppContext, GatewayHardware } from './context.ts';
import { openDatabase, type OpenedDatabase } from './db/open.ts';
import type { ControlService } from './devices/control-service.ts';
import type { BatchedTicks } from './sensors/batched-ticks.ts';
import type { PreviewLimits } from './devices/rules/preview-service.ts';
import { createClimateFeature } from './climate/feature.ts';
import { createDevicesFeature } from './devices/feature.ts';
import { siteOf } from './devices/rules/site.ts';
import { devicesDependingOn } from './devices/rules/dependents.ts';
import { EventBus } from './events/bus.ts';
import { serveFeatures, startFeatures, stopFeatures, type Feature } from './features.ts';
import { makeGreenhouseResolver } from './http/greenhouse.ts';
import type { DataLifecycle } from './lifecycle/data-lifecycle.ts';
import type { Statfs } from './lifecycle/storage-watch.ts';
import { createLifecycleFeature } from './lifecycle/feature.ts';
import { createMetricsFeature } from './metrics/feature.ts';
import { createMqttFeature } from './mqtt/feature.ts';
import { createNotificationsFeature, type NotificationsFeature } from './notifications/feature.ts';
import type { OutboxTiming } from './notifications/outbox-worker.ts';
import { createRealtimeFeature } from './realtime/feature.ts';
import type { HubOptions, RealtimeHub } from './realtime/hub.ts';
import { createSensorsFeature } from './sensors/feature.ts';
import type { SamplingLoop } from './sensors/sampling-loop.ts';
import { createSettingsFeature } from './settings/feature.ts';
import { createSimulatorFeature } from './simulator/feature.ts';
import { createUsersFeature } from './users/feature.ts';
import { SettingsService } from './settings/settings-service.ts';
import { ClockSync } from './time/clock-sync.ts';

export { DEMO_ACCOUNT } from './auth/feature.ts';

export interface GatewayOptions {
  /** Environment variables to read (default: none, so tests are not affected by the shell's). */
  env?: Record<string, string | undefined>;
  /** Config values that win over the environment and the config file. */
  overrides?: Partial<Config>;
  clock?: Clock;
  /** Hardware to use instead of building it from config (tests inject fakes here). */
  hardware?: Hardware;
  /** The process logger (gateway-process.ts: JSON lines with secrets redacted); default: silent. */
  logger?: Logger;
  hubOptions?: Partial<HubOptions>;
  /** Rule previews at once, per account and in all (default DEFAULT_PREVIEW_LIMITS). */
  previewLimits?: PreviewLimits;
  /** Outbox retries and timeouts (default DEFAULT_OUTBOX_TIMING). */
  outboxTiming?: Partial<OutboxTiming>;
  /** Web Push: tests pass an agent trusting their loopback push receiver, and short retry waits. */
  pushOptions?: PushFeatureOptions;
  /** Folder of the built dashboard; default web/dist when it exists. */
  webRoot?: string | null;
  /** The data disk's free space (tests: a disk nearly full). */
  statfs?: Statfs;
}

export interface Gateway extends AppContext {
  app: FastifyInstance;
  hardware: GatewayHardware;
  users: UsersRepo;
  /** Retention pruning and automatic backups (pruneNow/backupNow/idle for tests and tools). */
  lifecycle: DataLifecycle;
  hub: RealtimeHub;
  /** The one path for every device state change (users, rules, safety, system). */
  control: ControlService;
  /** The sampling loop: snapshot() of the newest values, lastSampleAt(sensorType), health(). */
  sampler: SamplingLoop;
  /** The sampler's ticks waiting for their once-a-minute commit (`flush()` commits now). */
  batches: BatchedTicks;
  /** Alert channels, their outbox and escalation. */
  notifications: NotificationsFeature;
  /** Web Push of alerts: subscriptions, the sender and the alert pusher. */
  push: PushFeature;
  /** http://host:port once started. */
  url: string;
  /** https://127.0.0.1:port once started with config https.port set, else null. */
  httpsUrl: string | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const REPO_ROOT = packageRoot(import.meta.url);
export const DEFAULT_WEB_ROOT = join(REPO_ROOT, 'web', 'dist');

/**
 * The composition root: the application context first (config, logger, clock, bus, hardware in its
 * safe state, database, settings), then every feature from it, then the HTTP server that carries their
 * routes. `appliance/gateway-process.ts` calls it with the process environment; tests with a temp data
 * dir and fakes.
 */
export async function createGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const ctx = await createAppContext(options);

  const auth = createAuthFeature(ctx);
  const settings = createSettingsFeature(ctx);
  const usersFeature = createUsersFeature(ctx, { auth });
  const realtime = createRealtimeFeature(ctx, { auth, hubOptions: options.hubOptions });
  const climate = createClimateFeature(ctx);
  const devices = createDevicesFeature(ctx, { hub: realtime.hub, previewLimits: options.previewLimits, climate: climate.service });
  const alerts = createAlertsFeature(ctx, {
    emailRecipients: () => auth.users.emailRecipients(),
    dependentsOf: (sensorType) => devicesDependingOn(sensorType, devices.repo.listPlain(), ctx.settings.get().deviceSettings.deadband).map((d) => d.deviceName),
    lockoutCause: (alertType, deviceId) => devices.safety.lockoutCause(alertType, deviceId),
  });
  // Push before notifications: its `webpush` kind joins the outbox's senders; the direct path yields to it.
  const push = createPushFeature(
    ctx,
    { accountId: (username) => auth.users.findByUsername(username)?.id ?? null, routedByChannels: () => notifications.channels.list().some((c) => c.kind === 'webpush') },
    options.pushOptions,
  );
  const notifications = createNotificationsFeature(ctx, { mail: alerts.mail, alerts: alerts.service, timing: options.outboxTiming, extraSenders: [push.channelSender] });
  const lifecycle = createLifecycleFeature(ctx, { statfs: options.statfs });
  const analytics = createAnalyticsFeature(ctx);
  const sensors = createSensorsFeature(ctx);
  const listDevices = () => devices.repo.list();
  const mqtt = createMqttFeature(ctx, { control: devices.control, listDevices, snapshot: () => sensors.sampler.snapshot(), waterToday: devices.waterToday });
  const metrics = createMetricsFeature(ctx, { sampler: sensors.sampler, listDevices, alerts: alerts.service, mqttStatus: mqtt.status, previews: () => devices.preview.counts(), mqttInputDropped: () => mqtt.inputDropped(), waterToday: devices.waterToday });
  /** Features whose start or serving step threw: the gateway runs without them, and health says so. */
  const failedFeatures: string[] = [];
  const health = createHealthFeature(ctx, {
    sampler: sensors.sampler,
    mqttStatus: mqtt.status,
    isSignedIn: auth.isSignedIn,
    commitError: () => sensors.batches.commitError(),
    failedFeatures: () => failedFeatures,
  });
  const simulator = createSimulatorFeature(ctx);
  const https = createHttpsFeature(ctx);
  // Started in this order and stopped in reverse: the sampler starts last (and stops first), once every
  // consumer of its ticks is listening. Metrics first, so its request timing covers every route.
  const features: Feature[] = [metrics, https, auth, usersFeature, settings, realtime, health, climate, devices, alerts, notifications, push, mqtt, lifecycle, analytics, simulator, sensors];

  const webRoot = options.webRoot === undefined ? (existsSync(DEFAULT_WEB_ROOT) ? DEFAULT_WEB_ROOT : null) : options.webRoot;
  const app = await buildHttpApp(ctx, { features, authenticate: auth.authenticate, webRoot });
  const log = ctx.logger.child({ feature: 'gateway' });

  const gateway: Gateway = {
    ...ctx,
    resolveGreenhouse: ctx.resolveGreenhouse,
    app,
    users: auth.users,
    lifecycle: lifecycle.lifecycle,
    hub: realtime.hub,
    control: devices.control,
    sampler: sensors.sampler,
    batches: sensors.batches,
    notifications,
    push,
    url: '',
    httpsUrl: null,
    async start() {
      ctx.clockSync.start();
      failedFeatures.push(...(await startFeatures(features, log)));
      await app.listen({ port: ctx.config.port, host: ctx.config.host });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : ctx.config.port;
      const host = ctx.config.host === '0.0.0.0' || ctx.config.host === '::' ? '127.0.0.1' : ctx.config.host;
      gateway.url = `http://${host}:${port}`;
      await https.listen(app);
      gateway.httpsUrl = https.url();
      failedFeatures.push(...(await serveFeatures(features, log)).filter((name) => !failedFeatures.includes(name)));
    },
    async stop() {
      ctx.clockSync.stop();
      await stopFeatures(features, log);
      // Outputs safe first: a slow HTTP close must not leave a pump running.
      await ctx.hardware.safeState();
      await app.close();
      await ctx.hardware.close();
      ctx.database.close();
    },
  };
  return gateway;
}

/** Builds what every feature is made from, outputs safe before anything else. */
async function createAppContext(options: GatewayOptions): Promise<AppContext> {
  const config = loadConfig(options.env ?? {}, options.overrides);
  const logger = options.logger ?? pino({ level: 'silent' });
  const clock = options.clock ?? clockFor(config);
  const driversLog = logger.child({ feature: 'drivers' });

  // Outputs go to their safe state before anything else happens (an active-low relay board may have
  // clicked on at boot): createHardware resolves only once every relay is off and the window closed.
  const hardware: GatewayHardware = options.hardware ?? (await createHardware({
    mode: config.hardware,
    clock,
    sensors: config.sensorInstances,
    outputs: config.outputs,
    simulator: config.simulator,
    log: (level, msg, obj) => driversLog[level](obj ?? {}, msg),
  }));
  if (options.hardware) await hardware.safeState();

  ensurePrivateDataDir(config.dataDir);
  const database = openDatabase(config.dataDir);
  if (clock instanceof ScaledClock) clock.resumeAfter(latestRecordMs(database));
  const bus = new EventBus(logger.child({ feature: 'events' }));
  const settings = new SettingsService({ db: database.db, bus, greenhouseId: config.greenhouseId, clock, defaultSite: siteOf(config) });
  const clockLog = logger.child({ feature: 'clock' });
  const clockSync = new ClockSync({
    mode: config.clockSync.mode ?? (config.hardware === 'raspberry-pi' ? 'check' : 'assume'),
    markerPath: config.clockSync.markerPath,
    clock,
    // Only the real clock steps by accident; a test's or the fast simulator's jumps are on purpose.
    monotonicMs: clock instanceof SystemClock ? monotonicMs : null,
    onSynchronised: () => {
      clockLog.info('the wall clock is synchronised: schedules and retention resume');
      bus.emit('clockChanged', { synchronised: true, stepMs: null });
    },
    onStep: (stepMs) => {
      clockLog.warn({ stepSeconds: Math.round(stepMs / 1000) }, 'the wall clock stepped');
      bus.emit('clockChanged', { synchronised: clockSync.synchronised(), stepMs });
    },
  });
  return { config, logger, clock, bus, database, hardware, settings, clockSync, resolveGreenhouse: makeGreenhouseResolver(config.greenhouseId) };
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
