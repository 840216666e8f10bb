import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { DataLifecycle } from './data-lifecycle.ts';
import { StorageWatch, type Statfs } from './storage-watch.ts';

export interface LifecycleFeature extends Feature {
  /** Retention pruning and automatic backups (pruneNow/backupNow/idle for tests and tools). */
  lifecycle: DataLifecycle;
}

export interface LifecycleUses {
  /** The data disk's free space (default node:fs/promises statfs; tests pass their own). */
  statfs?: Statfs;
}

/** Keeps the SQLite file bounded and recoverable: retention pruning, automatic backups, the disk's free space. */
export function createLifecycleFeature(ctx: AppContext, uses: LifecycleUses = {}): LifecycleFeature {
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
  const storage = new StorageWatch({ dir: ctx.config.dataDir, clock: ctx.clock, bus: ctx.bus, logger: featureLogger(ctx, 'storage'), statfs: uses.statfs });
  return {
    name: 'lifecycle',
    lifecycle,
    start: () => {
      lifecycle.start();
      storage.start();
    },
    stop: () => {
      storage.stop();
      return lifecycle.stop();
    },
  };
}
