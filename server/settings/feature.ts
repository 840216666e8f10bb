import type { AppContext } from '../context.ts';
import type { Feature } from '../features.ts';
import { settingsRoutes } from './routes.ts';

/**
 * /api/settings. The SettingsService itself lives in the application context (every feature reads
 * it); this feature is its HTTP face.
 */
export function createSettingsFeature(ctx: AppContext): Feature {
  return {
    name: 'settings',
    async registerRoutes(api) {
      await api.register(settingsRoutes, { prefix: '/settings', settings: ctx.settings });
    },
  };
}
