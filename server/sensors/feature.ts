import type Database from 'better-sqlite3';
import type { Clock } from '../../drivers/clock.ts';
import type { Settings } from '../contract/settings.ts';
import type { EventBus } from '../events/bus.ts';
import type { Feature } from '../features.ts';
import type { SensorSet } from './probes.ts';
import { RollupCatchUp } from '../history/rollup-catch-up.ts';
import { RollupWriter } from '../history/rollup-writer.ts';
import { ReadingsRepo } from './readings-repo.ts';
import { sensorRoutes } from './routes.ts';
import { SamplingLoop, type SamplingLoopOptions } from './sampling-loop.ts';

export interface SensorsFeatureDeps {
  sqlite: Database.Database;
  bus: EventBus;
  settings: { get(): Settings };
  clock: Clock;
  greenhouseId: string;
  sensors: SensorSet;
  log?: { info?(obj: object, msg: string): void; error(obj: object, msg: string): void };
  samplingOptions?: Partial<SamplingLoopOptions>;
}

export interface SensorsFeature extends Feature {
  repo: ReadingsRepo;
  sampler: SamplingLoop;
  /** Folds a rollup backlog in slices; `whenCurrent()` resolves once history reads are cheap. */
  catchUp: RollupCatchUp;
}

/** Sensors end to end: the sampling loop, the readings table and its rollups, the /api/sensors routes. */
export function createSensorsFeature(deps: SensorsFeatureDeps): SensorsFeature {
  const catchUp = new RollupCatchUp({ writer: new RollupWriter(deps.sqlite), log: deps.log });
  const repo = new ReadingsRepo(deps.sqlite, { onRollupBacklog: () => catchUp.kick() });
  const sampler = new SamplingLoop({
    sensors: deps.sensors,
    repo,
    bus: deps.bus,
    settings: deps.settings,
    clock: deps.clock,
    greenhouseId: deps.greenhouseId,
    log: deps.log,
    options: deps.samplingOptions,
  });
  return {
    name: 'sensors',
    repo,
    sampler,
    catchUp,
    routes: [{ prefix: '/sensors', plugin: sensorRoutes, options: { repo, clock: deps.clock, historyReady: () => catchUp.whenCurrent() } }],
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
