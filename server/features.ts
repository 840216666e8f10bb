import type { FastifyInstance } from 'fastify';

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
  stop?(): void | Promise<void>;
}
