import { monotonicMs, SystemClock } from '../../common/clock.ts';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { readyForHistory } from '../history/history-wait.ts';
import { RollupCatchUp } from '../history/rollup-catch-up.ts';
import { RollupWriter } from '../history/rollup-writer.ts';
import { BatchedTicks } from './batched-ticks.ts';
import { NewestReading } from './newest-reading.ts';
import { ReadingsRepo } from './readings-repo.ts';
import { sensorRoutes } from './routes.ts';
import { SamplingLoop } from './sampling-loop.ts';
import { MonotoneReadings } from '../time/monotone-readings.ts';
import { CalibrationService } from './calibration/calibration-service.ts';
import { calibrationRoutes } from './calibration/routes.ts';

export interface SensorsFeature extends Feature {
  repo: ReadingsRepo;
  sampler: SamplingLoop;
  /** Folds a rollup backlog in slices; `whenCurrent()` resolves once history reads are cheap. */
  catchUp: RollupCatchUp;
  /** The sampler's ticks, committed about once a minute (`flush()` commits now). */
  batches: BatchedTicks;
}

/** Sensors end to end: the sampling loop, the readings table and its rollups, the /api/sensors routes. */
export function createSensorsFeature(ctx: AppContext): SensorsFeature {
  const { clock } = ctx;
  const logger = featureLogger(ctx, 'sensors');
  // One rollup writer: the tick's inline fold and the background catch-up share its statements and state.
  const rollupWriter = new RollupWriter(ctx.database.sqlite);
  // After a restore or an upgrade the catch-up also scans the unfolded rows for the Now screen's newest readings.
  const newest = new NewestReading(ctx.database.sqlite);
  const catchUp = new RollupCatchUp({ writer: rollupWriter, newest, log: logger });
  // The batches fold the rollups every few minutes, not every commit (batched-ticks.ts: the SD card).
  const repo = new ReadingsRepo(ctx.database.sqlite, { rollupWriter, newest, onRollupBacklog: () => catchUp.kick(), foldOnInsert: false });
  const batches = new BatchedTicks({
    repo,
    sqlite: ctx.database.sqlite,
    clock,
    logger,
    // The readings' commit is the gateway's heartbeat write: its failing is the first sign of a full or failing card.
    onCommitStateChange: (error) => ctx.bus.emit('storageWrites', { error }),
  });
  // A wall clock stepped back never writes readings into the past of the history (docs/hardware.md).
  const monotone = new MonotoneReadings({
    repo: batches,
    greenhouseId: ctx.config.greenhouseId,
    onHeldBack: (sensorType, behindMs) =>
      logger.warn({ sensorType, behindSeconds: Math.round(behindMs / 1000) }, 'the clock is behind the newest stored reading: storing resumes once it passes it'),
  });
  // Calibration from the dashboard applies from the next read on; history keeps what was read.
  const calibration = new CalibrationService({ db: ctx.database.db, clock, instances: ctx.config.sensorInstances, sensors: ctx.hardware.sensors });
  const sampler = new SamplingLoop({
    sensors: calibration.wrap(ctx.hardware.sensors),
    repo: monotone,
    bus: ctx.bus,
    settings: ctx.settings,
    clock,
    greenhouseId: ctx.config.greenhouseId,
    logger,
    // Liveness (the watchdog) on time that never steps; a test's or the fast simulator's clock keeps its own.
    monotonicMs: clock instanceof SystemClock ? monotonicMs : undefined,
  });
  return {
    name: 'sensors',
    repo,
    sampler,
    catchUp,
    batches,
    async registerRoutes(api) {
      // A running catch-up first (or a 503 saying how far it is), then the held batch, committed and folded.
      const historyReady = () => readyForHistory(catchUp, () => batches.flush({ foldRollups: true }), clock);
      // Any write on the gateway's connection (total_changes) or another's (data_version) is a new version.
      const versions = ctx.database.sqlite.prepare('SELECT total_changes()').pluck();
      const dataVersion = () => (versions.get() as number) * 1_000 + (ctx.database.sqlite.pragma('data_version', { simple: true }) as number);
      await api.register(calibrationRoutes, { prefix: '/sensors/calibration', calibration });
      await api.register(sensorRoutes, { prefix: '/sensors', repo, latest: (id) => monotone.latest(batches.latest(id)), clock, historyReady, dataVersion, ppfdPerLux: ctx.config.light.ppfdPerLux, sampler });
    },
    start: () => {
      // Rollups catch up in the background (a restored database); history requests wait for them.
      catchUp.start();
      batches.start();
      return sampler.start();
    },
    stop: async () => {
      await sampler.stop();
      // The last ticks reach the disk before the database closes.
      batches.stop();
      await catchUp.stop();
    },
  };
}
