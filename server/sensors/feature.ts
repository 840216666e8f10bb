import type Database from 'better-sqlite3';
import type { Clock } from '../../drivers/clock.ts';
import type { Settings } from '../contract/settings.ts';
import type { EventBus } from '../events/bus.ts';
import type { Feature } from '../features.ts';
import type { SensorSet } from './probes.ts';
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
  log?: { error(obj: object, msg: string): void };
  samplingOptions?: Partial<SamplingLoopOptions>;
}

export interface SensorsFeature extends Feature {
  repo: ReadingsRepo;
  sampler: SamplingLoop;
}

/** Sensors end to end: the sampling loop, the readings table and the /api/sensors routes. */
export function createSensorsFeature(deps: SensorsFeatureDeps): SensorsFeature {
  const repo = new ReadingsRepo(deps.sqlite);
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
    routes: [{ prefix: '/sensors', plugin: sensorRoutes, options: { repo, clock: deps.clock } }],
    start: () => sampler.start(),
    stop: () => sampler.stop(),
  };
}
