import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { ReadingsRepo } from './readings-repo.ts';
import { sensorRoutes } from './routes.ts';
import { SamplingLoop } from './sampling-loop.ts';

export interface SensorsFeature extends Feature {
  repo: ReadingsRepo;
  sampler: SamplingLoop;
}

/** Sensors end to end: the sampling loop, the readings table and the /api/sensors routes. */
export function createSensorsFeature(ctx: AppContext): SensorsFeature {
  const { clock } = ctx;
  const repo = new ReadingsRepo(ctx.database.sqlite);
  const sampler = new SamplingLoop({
    sensors: ctx.hardware,
    repo,
    bus: ctx.bus,
    settings: ctx.settings,
    clock,
    greenhouseId: ctx.config.greenhouseId,
    logger: featureLogger(ctx, 'sensors'),
  });
  return {
    name: 'sensors',
    repo,
    sampler,
    async registerRoutes(api) {
      await api.register(sensorRoutes, { prefix: '/sensors', repo, clock });
    },
    start: () => sampler.start(),
    stop: () => sampler.stop(),
  };
}
