import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.ts';
import { Envelope } from '../contract/common.ts';
import type { MqttStatus } from '../contract/fleet.ts';
import type { Feature } from '../features.ts';
import { ok } from '../http/reply.ts';
import { packageVersion } from '../package-root.ts';
import type { SamplingLoop } from '../sensors/sampling-loop.ts';
import { collectHealth, cpuTemperatureReader, HealthAnswer, type HealthSources } from './health.ts';


interface HealthRoutesOptions {
  sources: HealthSources;
  isSignedIn: (request: FastifyRequest) => boolean;
}

async function healthRoutes(fastify: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // No token needed: a monitoring script or the install script's first-run check asks before anyone
  // signs in. A stranger learns only ok or degraded and whether the database answers (what the
  // installer's health check after an upgrade needs, docs/hardware.md "Installing a release"): the
  // details (broker address, driver error paths, version, the database's error) are for signed-in accounts.
  // Serialised with JSON.stringify (the answer is built field by field in collectHealth and below, so
  // nothing unlisted can leak): the first call of a fast-json-stringify serializer validates its schema
  // against the JSON Schema meta-schema with Ajv, about 300 ms on a Pi core, and health is what systemd,
  // the installer's rollback check and a monitor ask first after a start (docs/performance.md).
  const serializerCompiler = () => (data: unknown) => JSON.stringify(data);
  app.get('/', { schema: { response: { 200: Envelope(HealthAnswer) } }, serializerCompiler }, async (request) => {
    const health = await collectHealth(options.sources);
    return ok(options.isSignedIn(request) ? health : { status: health.status, database: { ok: health.database.ok } });
  });
}

/** GET /api/health (public): database, drivers, each sensor's last sample age, CPU temperature, the MQTT bridge. */
export function createHealthFeature(
  ctx: AppContext,
  uses: {
    sampler: Pick<SamplingLoop, 'lastSampleAt' | 'healthy'>;
    mqttStatus?: () => MqttStatus;
    isSignedIn: (request: FastifyRequest) => boolean;
    /** Why the last commit of readings failed, or null (a database that answers but refuses writes). */
    commitError?: () => string | null;
    failedFeatures?: () => readonly string[];
  },
): Feature {
  const builtAtMs = performance.now();
  const sources: HealthSources = {
    clock: ctx.clock,
    uptimeSeconds: () => (performance.now() - builtAtMs) / 1000,
    checkDatabase: () => {
      ctx.database.sqlite.prepare('SELECT 1').get();
      const refused = uses.commitError?.();
      if (refused) throw new Error(`writes refused: ${refused}`);
    },
    driverStatus: () => ctx.hardware.status(),
    lastSampleAt: (sensorType) => uses.sampler.lastSampleAt(sensorType),
    samplerHealthy: () => uses.sampler.healthy(),
    cpuTemperatureC: cpuTemperatureReader(),
    version: packageVersion(),
    hardwareMode: ctx.config.hardware,
    mqttStatus: uses.mqttStatus,
    clockStatus: () => ctx.clockSync.status(),
    failedFeatures: uses.failedFeatures,
  };
  return {
    name: 'health',
    async registerPublicRoutes(api) {
      await api.register(healthRoutes, { prefix: '/health', sources, isSignedIn: uses.isSignedIn });
    },
  };
}
