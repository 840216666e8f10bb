import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * A part of the gateway (auth, settings, sensors, devices, alerts, ...), built by `createXFeature(ctx)`
 * from the application context. Construction only wires dependencies; timers and subscriptions begin
 * in `start()` and end in `stop()`, which waits for work in flight. The gateway starts features in
 * order and stops them in reverse, each on its own: one that throws is logged and the others go on.
 */
export interface Feature {
  readonly name: string;
  /**
   * Registers the feature's routes (typed plugin options) under /api, behind the bearer-token guard,
   * which also rewrites `:greenhouseId` to the canonical id (404 for another greenhouse).
   */
  registerRoutes?(authenticated: FastifyInstance): Promise<void>;
  /** Registers routes that need no token (sign-in, health), under /api. */
  registerPublicRoutes?(api: FastifyInstance): Promise<void>;
  /** Registers routes outside /api (the websocket endpoint, the dashboard). */
  registerRootRoutes?(app: FastifyInstance): Promise<void>;
  start?(): void | Promise<void>;
  /**
   * Work that can wait until the gateway answers HTTP and samples: loading a large library only an
   * optional connection needs (mqtt.js is about half a second of module compilation on a Pi core, and the sampler
   * starts after every feature's `start`). Runs after listen, in order; `stop` may come before it ends.
   */
  serving?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/** Starts features in order, each on its own (see `runIsolated`); answers the names of those that failed. */
export function startFeatures(features: readonly Feature[], logger: Logger): Promise<string[]> {
  return runInOrder(features, 'start', logger);
}

/** Runs each feature's `serving` step in order, once the gateway listens (see `runIsolated`); answers those that failed. */
export function serveFeatures(features: readonly Feature[], logger: Logger): Promise<string[]> {
  return runInOrder(features, 'serving', logger);
}

async function runInOrder(features: readonly Feature[], step: 'start' | 'serving', logger: Logger): Promise<string[]> {
  const failed: string[] = [];
  for (const feature of features) if (!(await runIsolated(feature, step, logger))) failed.push(feature.name);
  return failed;
}

/** Stops features in reverse order, each on its own, every one waiting for its work in flight. */
export async function stopFeatures(features: readonly Feature[], logger: Logger): Promise<void> {
  for (const feature of [...features].reverse()) await runIsolated(feature, 'stop', logger);
}

type FeatureStep = 'start' | 'serving' | 'stop';
const DONE: Record<FeatureStep, string> = { start: 'started', serving: 'serving', stop: 'stopped' };

/**
 * Zigbee2MQTT's way: a feature that throws is logged with its name and the others still start or
 * stop, so one broken part cannot keep the sampler from running or the outputs from going safe.
 */
async function runIsolated(feature: Feature, step: FeatureStep, logger: Logger): Promise<boolean> {
  const run = feature[step];
  if (!run) return true;
  try {
    await run.call(feature);
    logger.info({ featureName: feature.name }, `${feature.name} ${DONE[step]}`);
    return true;
  } catch (err) {
    logger.error({ err, featureName: feature.name }, `${feature.name} failed to ${step}`);
    return false;
  }
}
