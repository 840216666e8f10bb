import { SerialQueue } from '../../common/delay.ts';
import type { Logger } from 'pino';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import { AUTO_VACUUM } from '../db/auto-vacuum.ts';
import type { EventBus } from '../events/bus.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { BACKUPS_DIR, FULL_BACKUP_EVERY_MS, backupTimeMs, listBackups, pruneBackups, writeBackup, type BackupKind } from './backup.ts';
import { resolveBackupTarget, type BackupTarget } from './backup-target.ts';
import { foldAllPending } from '../history/rollup-catch-up.ts';
import { RollupWriter } from '../history/rollup-writer.ts';
import { pruneOlderThan, pruneRollups, retentionCutoffMs, type PruneResult } from './retention.ts';
import { reclaimFreePages } from './vacuum.ts';

export const LIFECYCLE_TICK_MS = 60 * 60_000;
export const BACKUP_EVERY_MS = 24 * 60 * 60_000;
/** The first run waits a little after start, so start-up (and safe-state) is never slowed by it. */
export const FIRST_RUN_DELAY_MS = 60_000;

export interface DataLifecycleDeps {
  sqlite: Database.Database;
  dataDir: string;
  settings: SettingsService;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /**
   * False until the wall clock is synchronised: a Pi without a real-time clock may run on a wrong
   * date, and a cut-off computed from it could delete weeks that retention should keep. Default: true.
   */
  clockSynchronised?: () => boolean;
  /** `backup.dir` of the config: backups go there only (backup-target.ts); unset, `backups/` in the data dir. */
  backupDir?: string;
  /** The device a path is on (tests); default `stat().dev`. */
  deviceOf?: (path: string) => number;
}

/**
 * Keeps the SQLite file bounded and recoverable: hourly retention pruning (and at once when the
 * retention setting changes) of raw rows and, on their own longer horizons, of rollups, then an
 * incremental vacuum; and, when `autoBackup` is on, a backup once a day.
 * Runs one job at a time; a request during a run is queued behind it.
 */
export class DataLifecycle {
  #timer: TimerHandle | null = null;
  #unsubscribe: (() => void) | null = null;
  readonly #jobs = new SerialQueue();
  #stopped = true;
  #lastBackupMs: number | null = null;

  readonly #rollups: RollupWriter;

  constructor(private readonly deps: DataLifecycleDeps) {
    this.#rollups = new RollupWriter(deps.sqlite);
  }

  get backupsDir(): string {
    return this.deps.backupDir ?? join(this.deps.dataDir, BACKUPS_DIR);
  }

  #backupTarget(): BackupTarget {
    return resolveBackupTarget({ dataDir: this.deps.dataDir, configuredDir: this.deps.backupDir, deviceOf: this.deps.deviceOf });
  }

  start(): void {
    this.#stopped = false;
    const target = this.#backupTarget();
    if (target.ok) {
      mkdirSync(target.dir, { recursive: true });
      pruneBackups(target.dir); // leftovers of a backup interrupted by a crash
      const newest = listBackups(target.dir).at(-1);
      this.#lastBackupMs = newest ? backupTimeMs(newest) : null;
    } else {
      this.deps.logger.warn({ dir: target.dir, reason: target.reason }, 'the backup disk is not usable now; backups are skipped until it is');
    }
    if (this.deps.sqlite.pragma('auto_vacuum', { simple: true }) !== AUTO_VACUUM.incremental) {
      this.deps.logger.info({}, 'database is not in incremental auto-vacuum mode (too large to convert at start): pruned space is reused, not returned; see docs/storage.md');
    }
    this.#unsubscribe = this.deps.bus.on('settingsChanged', 'lifecycle', ({ settings, previous }) => {
      const now = settings.systemSettings;
      const before = previous.systemSettings;
      if (now.dataRetentionDays !== before.dataRetentionDays) this.#runLogged('retention pruning', () => this.pruneNow());
      if (now.autoBackup && !before.autoBackup) this.#runLogged('automatic backup', () => this.#backupIfDue());
    });
    this.#schedule(FIRST_RUN_DELAY_MS);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    // Let a running batch or backup finish before the database is closed under it.
    await this.idle();
  }

  /** Resolves when no job is running (tests, shutdown). */
  idle(): Promise<void> {
    return this.#jobs.idle();
  }

  /** Deletes what is older than the retention now (queued behind a running job). */
  pruneNow(): Promise<PruneResult | null> {
    return this.#enqueue(async () => {
      if (this.#stopped) return null;
      const { sqlite, clock, clockSynchronised = () => true } = this.deps;
      if (!clockSynchronised()) {
        this.deps.logger.info({}, 'retention pruning skipped: the clock is not synchronised yet');
        return null;
      }
      const shouldStop = () => this.#stopped;
      const days = this.deps.settings.get().systemSettings.dataRetentionDays;
      // Raw rows the rollups have not seen yet (a restored database) are folded before they go.
      await foldAllPending(this.#rollups, shouldStop);
      const result: PruneResult = await pruneOlderThan(sqlite, retentionCutoffMs(clock.now(), days), { shouldStop });
      result.rollupsDeleted = await pruneRollups(sqlite, clock.now(), { shouldStop });
      result.reclaimedPages = await reclaimFreePages(sqlite, { shouldStop });
      const total = [...Object.values(result.deleted), ...Object.values(result.rollupsDeleted)].reduce((a, b) => a + b, 0);
      if (total > 0) this.deps.logger.info({ ...result, retentionDays: days }, 'retention pruned old rows');
      return result;
    });
  }

  /**
   * Writes a backup now, whatever the schedule and the autoBackup setting say: a full one when the
   * newest full backup is a week old (or there is none), else an essential one (backup.ts). Skipped,
   * with a BACKUP_SKIPPED alert, when a configured backup disk is not usable: never onto the SD card.
   */
  backupNow(): Promise<string | null> {
    return this.#enqueue(async () => {
      if (this.#stopped) return null;
      const atMs = this.deps.clock.now();
      const target = this.#backupTarget();
      if (!target.ok) {
        this.deps.logger.warn({ dir: target.dir, reason: target.reason }, 'backup skipped');
        this.deps.bus.emit('backupOutcome', { written: false, dir: target.dir, reason: target.reason });
        return null;
      }
      const kind = this.#kindDue(target.dir, atMs);
      const { path, restarts } = await writeBackup(this.deps.sqlite.name, target.dir, atMs, kind);
      this.#lastBackupMs = atMs;
      this.deps.logger.info({ path, kind, restarts }, 'backup written');
      this.deps.bus.emit('backupOutcome', { written: true, dir: target.dir, path });
      return path;
    });
  }

  #kindDue(dir: string, atMs: number): BackupKind {
    const newestFull = listBackups(dir, 'full').at(-1);
    const fullAtMs = newestFull ? backupTimeMs(newestFull)! : null;
    // abs: a wall clock stepped back must not leave raw readings without a backup for ever.
    return fullAtMs === null || Math.abs(atMs - fullAtMs) >= FULL_BACKUP_EVERY_MS ? 'full' : 'essential';
  }

  #backupIfDue(): Promise<string | null> {
    const { autoBackup } = this.deps.settings.get().systemSettings;
    const due = this.#lastBackupMs === null || this.deps.clock.now() - this.#lastBackupMs >= BACKUP_EVERY_MS;
    return autoBackup && due ? this.backupNow() : Promise.resolve(null);
  }

  #runLogged(what: string, job: () => Promise<unknown>): void {
    job().catch((err) => this.deps.logger.error({ err }, `${what} failed`));
  }

  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    return this.#jobs.run(job);
  }

  #schedule(delayMs: number): void {
    this.#timer = this.deps.clock.setTimeout(() => {
      this.#timer = null;
      if (this.#stopped) return;
      // Re-arm first: a failed run must not end the schedule.
      this.#schedule(LIFECYCLE_TICK_MS);
      this.#runLogged('retention pruning', () => this.pruneNow());
      this.#runLogged('automatic backup', () => this.#backupIfDue());
    }, delayMs);
  }
}
