import type { FastifyPluginAsync } from 'fastify';

/**
 * A feature of the gateway (sensors, devices, alerts, ...): its authenticated routes under /api, and the
 * timers or subscriptions it starts and stops. Constructors only keep their dependencies.
 */
export interface Feature {
  name: string;
  routes?: Array<{ prefix: string; plugin: FastifyPluginAsync<any>; options?: object }>;
  /** Routes that need no token (e.g. health), under /api. */
  publicRoutes?: Array<{ prefix: string; plugin: FastifyPluginAsync<any>; options?: object }>;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}
