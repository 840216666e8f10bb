import type { AppContext } from '../context.ts';
import type { Feature } from '../features.ts';
import { analyticsRoutes } from './routes.ts';

/** /api/analytics: the Analytics screen's report download (its charts read /api/sensors). */
export function createAnalyticsFeature(ctx: AppContext): Feature {
  return {
    name: 'analytics',
    async registerRoutes(api) {
      await api.register(analyticsRoutes, { prefix: '/analytics', dbPath: ctx.database.path, clock: ctx.clock });
    },
  };
}
