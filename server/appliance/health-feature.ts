import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Envelope } from '../contract/common.ts';
import type { Feature } from '../features.ts';
import { ok } from '../http/reply.ts';
import { collectHealth, Health, type HealthSources } from './health.ts';

const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** The app's version from package.json (read once at start). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function healthRoutes(fastify: FastifyInstance, options: { sources: HealthSources }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // No token: a monitoring script or the install script's first-run check asks before anyone signs in.
  app.get('/', { schema: { response: { 200: Envelope(Health) } } }, async () => ok(await collectHealth(options.sources)));
}

/** GET /api/health (public). */
export function createHealthFeature(sources: HealthSources): Feature {
  return { name: 'health', publicRoutes: [{ prefix: '/health', plugin: healthRoutes, options: { sources } }] };
}
