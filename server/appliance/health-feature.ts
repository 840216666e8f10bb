import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.ts';
import { Envelope } from '../contract/common.ts';
import type { MqttStatus } from '../contract/fleet.ts';
import type { Feature } from '../features.ts';
import { ok } from '../http/reply.ts';
import { packageRoot } from '../package-root.ts';
import type { SamplingLoop } from '../sensors/sampling-loop.ts';
import { collectHealth, cpuTemperatureReader, HealthAnswer, type HealthSources } from './health.ts';

// From the sources or from the compiled dist/server/main.js alike.
const PACKAGE_JSON = join(packageRoot(import.meta.url), 'package.json');

/** The app's version from package.json (read once at start). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

interface HealthRoutesOptions {
  sources: HealthSources;
  isSignedIn: (request: FastifyRequest) => boolean;
}

async function healthRoutes(fastify: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // No token needed: a monitoring script or the install script's first-run check asks before anyone
  // signs in. A stranger learns only ok or degraded: the details (broker address, driver error paths,
  // version) are for signed-in accounts.
  app.get('/', { schema: { response: { 200: Envelope(HealthAnswer) } } }, async (request) => {
    const health = await collectHealth(options.sources);
    return ok(options.isSignedIn(request) ? health : { status: health.status });
  });
}

/** GET /api/health (public): database, drivers, each sensor's last sample age, CPU temperature, the MQTT bridge. */
export function createHealthFeature(
  ctx: AppContext,
  uses: { sampler: Pick<SamplingLoop, 'lastSampleAt' | 'healthy'>; mqttStatus?: () => MqttStatus; isSignedIn: (request: FastifyRequest) => boolean },
): Feature {
  const builtAtMs = performance.now();
  const sources: HealthSources = {
    clock: ctx.clock,
    uptimeSeconds: () => (performance.now() - builtAtMs) / 1000,
    checkDatabase: () => void ctx.database.sqlite.prepare('SELECT 1').get(),
    driverStatus: () => ctx.hardware.status(),
    lastSampleAt: (sensorType) => uses.sampler.lastSampleAt(sensorType),
    samplerHealthy: () => uses.sampler.healthy(),
    cpuTemperatureC: cpuTemperatureReader(),
    version: packageVersion(),
    hardwareMode: ctx.config.hardware,
    mqttStatus: uses.mqttStatus,
    clockStatus: () => ctx.clockSync.status(),
  };
  return {
    name: 'health',
    async registerPublicRoutes(api) {
      await api.register(healthRoutes, { prefix: '/health', sources, isSignedIn: uses.isSignedIn });
    },
  };
}
