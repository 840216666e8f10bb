import type { UnrecordedAlert } from '../alerts/alert-service.ts';
import { SEVERITY_RANK } from '../alerts/evaluator.ts';
import type { StoredChannel } from './channels-repo.ts';
import { sendToEveryChannel, type PastOutboxDeps } from './direct-send.ts';
import { REPEAT_WINDOW_MS } from './dispatcher.ts';
import { unrecordedAlertMessage } from './message.ts';
import { inQuietHours } from './quiet-hours.ts';

/**
 * Alerts raised while the database refuses writes (`alertUnrecorded`): the outbox lives in that database,
 * so each goes past it, one attempt per channel, to the channels that would have had it: at or above their
 * minimum severity and outside their quiet hours, except a CRITICAL, which nobody can acknowledge and so
 * would never be escalated (docs/storage.md, "When the storage refuses a write"). Its cause persists and
 * is raised again at every reading: the same alert goes again after the dispatcher's repeat window, or at
 * once when it got worse.
 */
export class UnrecordedAlerts {
  /** Last sent per cause (type and device), with its severity rank. */
  readonly #lastSent = new Map<string, { atMs: number; rank: number }>();
  readonly #sending = new Set<Promise<unknown>>();
  #off: (() => void) | null = null;

  constructor(private readonly deps: PastOutboxDeps) {}

  start(): void {
    this.#off = this.deps.bus.on('alertUnrecorded', 'notifications', ({ alert, error }) => this.#tell(alert, error));
  }

  /** Stops listening, and waits for what is being sent. */
  async stop(): Promise<void> {
    this.#off?.();
    this.#off = null;
    await Promise.allSettled([...this.#sending]);
  }

  #tell(alert: UnrecordedAlert, error: string): void {
    const { clock, logger } = this.deps;
    const nowMs = clock.now();
    for (const [cause, last] of this.#lastSent) if (nowMs - last.atMs >= REPEAT_WINDOW_MS) this.#lastSent.delete(cause);
    const cause = `${alert.alertType}|${alert.deviceId ?? ''}`;
    const rank = SEVERITY_RANK[alert.severity];
    const last = this.#lastSent.get(cause);
    if (last && rank <= last.rank) return;
    this.#lastSent.set(cause, { atMs: nowMs, rank });
    logger.error({ cause, severity: alert.severity, error }, 'alert not stored (the storage refuses writes): sent past the outbox');
    const admits = (channel: StoredChannel) =>
      rank >= SEVERITY_RANK[channel.minSeverity] && (alert.severity === 'CRITICAL' || !inQuietHours(channel.quietHours, nowMs));
    const message = unrecordedAlertMessage(this.deps.greenhouseId, alert, this.deps.publicUrl());
    const sent = sendToEveryChannel(this.deps, message, admits).catch((err: unknown) => logger.error({ err, cause }, 'could not send an unrecorded alert'));
    this.#sending.add(sent);
    void sent.finally(() => this.#sending.delete(sent));
  }
}
