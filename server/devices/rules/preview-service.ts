import type { Worker } from 'node:worker_threads';
import type { Clock } from '../../../common/clock.ts';
import type { AutomationPreview, AutomationRules } from '../../contract/device.ts';
import { startModuleWorker } from '../../db/worker.ts';
import { TurnTaking } from '../../history/turn-taking.ts';
import { busy, notFound } from '../../domain/errors.ts';
import type { SettingsService } from '../../settings/settings-service.ts';
import type { DevicesRepo } from '../devices-repo.ts';
import type { PreviewJob } from './preview-job.ts';
import type { ClimateProgram } from '../../contract/climate.ts';
import { sensorsFor } from './preview.ts';
import type { Site } from './schedule.ts';
import { mergeRules } from './off-at.ts';
import { checkAutomationRules } from './check-rules.ts';

/** Previews running at once: each is a worker thread (its own V8 heap, ~10 MB) and a share of the core. */
export interface PreviewLimits {
  perAccount: number;
  total: number;
}

export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = { perAccount: 2, total: 3 };

export interface PreviewServiceDeps {
  repo: DevicesRepo;
  settings: SettingsService;
  clock: Clock;
  /** systemSettings.site, read at each preview (changes apply at once). */
  site: () => Site | null;
  checkSchedule: (schedule: NonNullable<AutomationRules['schedule']>) => void;
  /** The database file the worker opens read-only. */
  dbPath: string;
  greenhouseId: string;
  limits?: PreviewLimits;
  /** The climate program now (docs/climate.md), replayed for devices that follow it; null without one. */
  climateProgram?: () => ClimateProgram | null;
  /** Starts the preview's worker thread (a test's stand-in; the gateway's is preview-worker.ts). */
  startWorker?: (data: { dbPath: string; greenhouseId: string; job: PreviewJob }) => Worker;
}

const startPreviewWorker = (data: { dbPath: string; greenhouseId: string; job: PreviewJob }): Worker => startModuleWorker(import.meta.url, 'preview-worker', data);

export interface PreviewRequest {
  deviceId: string;
  /** The rules to try; unset fields keep the device's own. */
  changes: Partial<AutomationRules>;
  hours: number;
  /** Who asks (the caps count per account). */
  accountId: number;
  /** Aborted when the client has gone: the worker is terminated. */
  signal: AbortSignal;
}

export interface PreviewCounts {
  running: number;
  completed: number;
  cancelled: number;
  refused: number;
}

const HOUR_MS = 3_600_000;

/**
 * POST /api/devices/:deviceId/automation/preview: what these rules would have done over the last hours.
 * The request is checked here, on the main thread (device, schedule, settings); the replay runs on a
 * worker thread (preview-worker.ts) with its own read-only connection, so a week of readings never
 * holds the event loop the sampler, the rules and the safety timers share. Capped per account and in
 * all (busy: 429), and the worker is terminated as soon as the client goes away.
 */
export class PreviewService {
  readonly #limits: PreviewLimits;
  readonly #runningByAccount = new Map<number, number>();
  readonly #workers = new Set<Worker>();
  readonly #counts: PreviewCounts = { running: 0, completed: 0, cancelled: 0, refused: 0 };
  /**
   * Workers are started one per turn of the event loop: starting one is about 2.5 ms of main-thread work
   * at full speed (a thread, its ports, lowering its priority), and two previews asked at once started
   * both in one turn, held from sampling and the safety timers (docs/performance.md).
   */
  readonly #starts = new TurnTaking();
  /** Previews admitted whose worker waits for its turn to start (they count against the caps). */
  #starting = 0;
  #stopped = false;

  constructor(private readonly deps: PreviewServiceDeps) {
    this.#limits = deps.limits ?? DEFAULT_PREVIEW_LIMITS;
  }

  counts(): PreviewCounts {
    return { ...this.#counts, running: this.#workers.size };
  }

  async preview(request: PreviewRequest): Promise<AutomationPreview> {
    const job = this.#job(request);
    const mine = this.#runningByAccount.get(request.accountId) ?? 0;
    if (mine >= this.#limits.perAccount) {
      this.#counts.refused++;
      throw busy(`At most ${this.#limits.perAccount} rule previews per account at once: wait for the running one`);
    }
    if (this.#workers.size + this.#starting >= this.#limits.total) {
      this.#counts.refused++;
      throw busy('Too many rule previews running on the gateway: try again shortly');
    }
    this.#runningByAccount.set(request.accountId, mine + 1);
    try {
      return await this.#run(job, request.signal);
    } finally {
      const left = (this.#runningByAccount.get(request.accountId) ?? 1) - 1;
      if (left > 0) this.#runningByAccount.set(request.accountId, left);
      else this.#runningByAccount.delete(request.accountId);
    }
  }

  /** Terminates every running preview (the gateway is stopping). */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([...this.#workers].map((worker) => worker.terminate()));
  }

  #job({ deviceId, changes, hours }: PreviewRequest): PreviewJob {
    const { repo, settings, clock } = this.deps;
    const device = repo.find(deviceId);
    if (!device) throw notFound(`Device '${deviceId}' not found`);
    // Unset fields keep the device's own rules, as saving them would.
    const rules: AutomationRules = mergeRules(device.automationRules, changes);
    if (changes?.schedule) this.deps.checkSchedule(changes.schedule);
    checkAutomationRules(rules, changes, device.deviceType);
    const { deviceSettings, systemSettings } = settings.get();
    const toMs = clock.now();
    return {
      deviceId,
      device: { deviceType: device.deviceType, powerW: device.powerConsumption, sensorLossAction: device.sensorLossAction, sensorLossDutyPct: device.sensorLossDutyPct, flowLitresPerMinute: device.flowLitresPerMinute ?? null },
      rules,
      deviceSettings,
      site: this.deps.site(),
      fromMs: toMs - hours * HOUR_MS,
      toMs,
      tickGapMs: (systemSettings.updateInterval * 1000) / 2,
      sensors: sensorsFor(rules, deviceSettings.deadband, device.deviceType),
      climate: rules.follow ? (this.deps.climateProgram?.() ?? null) : null,
    };
  }

  async #run(job: PreviewJob, signal: AbortSignal): Promise<AutomationPreview> {
    this.#starting++;
    const worker = await this.#starts
      .run(() => (signal.aborted || this.#stopped ? null : (this.deps.startWorker ?? startPreviewWorker)({ dbPath: this.deps.dbPath, greenhouseId: this.deps.greenhouseId, job })))
      .finally(() => this.#starting--);
    if (!worker) {
      this.#counts.cancelled++;
      throw new Error(this.#stopped ? 'preview cancelled: the gateway is stopping' : 'preview cancelled: the client went away');
    }
    return this.#answerOf(worker, signal);
  }

  /** The worker's preview; it is terminated as soon as it answers, fails or the client goes away. */
  #answerOf(worker: Worker, signal: AbortSignal): Promise<AutomationPreview> {
    return new Promise((resolve, reject) => {
      this.#workers.add(worker);
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', cancel);
        this.#workers.delete(worker);
        void worker.terminate();
        outcome();
      };
      const cancel = () =>
        settle(() => {
          this.#counts.cancelled++;
          reject(new Error('preview cancelled: the client went away'));
        });
      signal.addEventListener('abort', cancel, { once: true });
      if (signal.aborted) cancel();
      worker.once('message', (answer: { preview: AutomationPreview } | { error: string }) =>
        settle(() => {
          if ('error' in answer) {
            reject(new Error(`rule preview failed: ${answer.error}`));
            return;
          }
          this.#counts.completed++;
          resolve(answer.preview);
        }),
      );
      worker.once('error', (err) => settle(() => reject(err)));
      worker.once('exit', (code) => settle(() => reject(new Error(`rule preview worker exited with code ${code}`))));
    });
  }
}
