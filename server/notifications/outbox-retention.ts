import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { OutboxRepo } from './outbox-repo.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Finished deliveries (delivered or failed for good) are kept as long as readings are
 * (`systemSettings.dataRetentionDays`), then dropped with their attempts; pending ones always stay.
 */
export class OutboxRetention {
  #timer: TimerHandle | null = null;

  constructor(private readonly deps: { outbox: OutboxRepo; settings: SettingsService; clock: Clock; logger: Logger }) {}

  start(): void {
    this.#schedule();
  }

  stop(): void {
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  pruneNow(): number {
    const keepMs = this.deps.settings.get().systemSettings.dataRetentionDays * DAY_MS;
    return this.deps.outbox.pruneFinished(this.deps.clock.now() - keepMs);
  }

  #schedule(): void {
    this.#timer = this.deps.clock.setTimeout(() => {
      try {
        const removed = this.pruneNow();
        if (removed > 0) this.deps.logger.info({ removed }, 'old deliveries pruned from the outbox');
      } catch (err) {
        this.deps.logger.error({ err }, 'outbox pruning failed');
      }
      this.#schedule();
    }, HOUR_MS);
  }
}
