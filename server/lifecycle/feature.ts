import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { DataLifecycle } from './data-lifecycle.ts';

export interface LifecycleFeature extends Feature {
  /** Retention pruning and automatic backups (pruneNow/backupNow/idle for tests and tools). */
  lifecycle: DataLifecycle;
}

/** Keeps the SQLite file bounded and recoverable: retention pruning and automatic backups. */
export function createLifecycleFeature(ctx: AppContext): LifecycleFeature {
  const lifecycle = new DataLifecycle({
    sqlite: ctx.database.sqlite,
    dataDir: ctx.config.dataDir,
    settings: ctx.settings,
    bus: ctx.bus,
    clock: ctx.clock,
    logger: featureLogger(ctx, 'lifecycle'),
    clockSynchronised: () => ctx.clockSync.synchronised(),
    backupDir: ctx.config.backup.dir,
  });
  return {
    name: 'lifecycle',
    lifecycle,
    start: () => lifecycle.start(),
    stop: () => lifecycle.stop(),
  };
}
