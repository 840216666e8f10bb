import { featureLogger, type AppContext } from '../context.ts';
import type { Feature } from '../features.ts';
import { liveSite } from '../devices/rules/site.ts';
import { ClimateService } from './climate-service.ts';
import { ClimateProgramRepo } from './program-repo.ts';
import { climateRoutes } from './routes.ts';

export interface ClimateFeature extends Feature {
  service: ClimateService;
}

/** Climate programs (docs/climate.md): the program and its targets; the devices feature's rule runner follows them. */
export function createClimateFeature(ctx: AppContext): ClimateFeature {
  const service = new ClimateService({
    repo: new ClimateProgramRepo({ db: ctx.database.db }),
    greenhouseId: ctx.config.greenhouseId,
    clock: ctx.clock,
    bus: ctx.bus,
    site: liveSite(() => ctx.settings.get().systemSettings),
    clockSynchronised: () => ctx.clockSync.synchronised(),
    logger: featureLogger(ctx, 'climate'),
  });
  return {
    name: 'climate',
    service,
    async registerRoutes(api) {
      await api.register(climateRoutes, { prefix: '/climate', climate: service });
    },
  };
}
