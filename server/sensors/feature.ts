import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { RollupCatchUp } from '../history/rollup-catch-up.ts';
import { RollupWriter } from '../history/rollup-writer.ts';
import { ReadingsRepo } from './readings-repo.ts';
import { sensorRoutes } from './routes.ts';
import { SamplingLoop } from './sampling-loop.ts';

export interface SensorsFeature extends Feature {
  repo: ReadingsRepo;
  sampler: SamplingLoop;
  /** Folds a rollup backlog in slices; `whenCurrent()` resolves once history reads are cheap. */
  catchUp: RollupCatchUp;
}

/** Sensors end to end: the sampling loop, the readings table and its rollups, the /api/sensors routes. */
export function createSensorsFeature(ctx: AppContext): SensorsFeature {
  const { clock } = ctx;
  const logger = featureLogger(ctx, 'sensors');
  const catchUp = new RollupCatchUp({ writer: new RollupWriter(ctx.database.sqlite), log: logger });
  const repo = new ReadingsRepo(ctx.database.sqlite, { onRollupBacklog: () => catchUp.kick() });
  const sampler = new SamplingLoop({
    sensors: ctx.hardware.sensors,
    repo,
    bus: ctx.bus,
    settings: ctx.settings,
    clock,
    greenhouseId: ctx.config.greenhouseId,
    logger,
  });
  return {
    name: 'sensors',
    repo,
    sampler,
    catchUp,
    async registerRoutes(api) {
      await api.register(sensorRoutes, { prefix: '/sensors', repo, clock, historyReady: () => catchUp.whenCurrent(), ppfdPerLux: ctx.config.light.ppfdPerLux, sampler });
    },
    start: () => {
      // Rollups catch up in the background (a restored database); history requests wait for them.
      catchUp.start();
      return sampler.start();
    },
    stop: async () => {
      await sampler.stop();
      await catchUp.stop();
    },
  };
}
