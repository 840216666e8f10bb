import type { UnrecordedAlert } from '../alerts/alert-service.ts';
import { SEVERITY_RANK } from '../alerts/evaluator.ts';
import type { StoredChannel } from './channels-repo.ts';
import { sendToEveryChannel, type PastOutboxDeps } from './direct-send.ts';
import { unrecordedAlertMessage } from './message.ts';
import { inQuietHours } from './quiet-hours.ts';

/**
 * Alerts raised while the database refuses writes (`alertUnrecorded`): the outbox lives in that database,
 * so each goes past it, one attempt per channel, to the channels that would have had it: at or above their
 * minimum severity and outside their quiet hours, except a CRITICAL, which nobody can acknowledge and so
 * would never be escalated (docs/storage.md, "When the storage refuses a write"). The alerts feature
 * tells each cause again only when it got worse or after a repeat window.
 */
export class UnrecordedAlerts {
  readonly #sending = new Set<Promise<unknown>>();
  #off: (() => void) | null = null;

  constructor(private readonly deps: PastOutboxDeps) {}

  start(): void {
    this.#off = this.deps.bus.on('alertUnrecorded', 'notifications', ({ alert }) => this.#tell(alert));
  }

  /** Stops listening, and waits for what is being sent. */
  async stop(): Promise<void> {
    this.#off?.();
    this.#off = null;
    await Promise.allSettled([...this.#sending]);
  }

  #tell(alert: UnrecordedAlert): void {
    const nowMs = this.deps.clock.now();
    const rank = SEVERITY_RANK[alert.severity];
    const admits = (channel: StoredChannel) =>
      rank >= SEVERITY_RANK[channel.minSeverity] && (alert.severity === 'CRITICAL' || !inQuietHours(channel.quietHours, nowMs));
    const message = unrecordedAlertMessage(this.deps.greenhouseId, alert, this.deps.publicUrl());
    const sent = sendToEveryChannel(this.deps, message, admits).catch((err: unknown) =>
      this.deps.logger.error({ err, alertType: alert.alertType }, 'could not send an unrecorded alert'),
    );
    this.#sending.add(sent);
    void sent.finally(() => this.#sending.delete(sent));
  }
}
