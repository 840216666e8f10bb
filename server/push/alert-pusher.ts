import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { Alert, Severity } from '../contract/alert.ts';
import { isStorageRefusal } from '../db/storage-refusal.ts';
import type { PushMessage, PushTestResult } from '../contract/push.ts';
import type { EventBus } from '../events/bus.ts';
import { alertPushMessage, meetsSeverity, ttlSecondsOf, unrecordedAlertPushMessage, urgencyOf } from './alert-message.ts';
import type { PushSubscriptionRow, PushSubscriptionsRepo } from './subscriptions-repo.ts';
import type { PushUrgency, WebPushSender } from './web-push-sender.ts';

/** After a retryable failure (push service down, phone's network away): again after these waits. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000] as const;

export interface AlertPusherOptions {
  repo: PushSubscriptionsRepo;
  sender: WebPushSender;
  clock: Clock;
  logger: Logger;
  retryDelaysMs?: readonly number[];
  /** True while the notification outbox pushes alerts through a `webpush` channel (then this stays quiet). */
  routedByChannels?: () => boolean;
}

interface Delivery {
  message: PushMessage;
  urgency: PushUrgency;
  ttlSeconds: number;
}

/**
 * Pushes every raised alert to the browsers subscribed at or below its severity (docs/https.md, Web
 * Push). Each browser is sent to on its own: one failing or slow push service never holds another, and
 * a retryable failure is tried again on the injected clock. A browser the push service says is gone is
 * forgotten.
 */
export class AlertPusher {
  readonly #options: AlertPusherOptions;
  readonly #retryDelaysMs: readonly number[];
  readonly #timers = new Set<TimerHandle>();
  readonly #inFlight = new Set<Promise<unknown>>();
  #off: (() => void) | null = null;

  constructor(options: AlertPusherOptions) {
    this.#options = options;
    this.#retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  start(bus: EventBus): void {
    const offRaised = bus.on('alertRaised', 'push', ({ alert }) => {
      if (this.#options.routedByChannels?.()) return;
      this.#track(this.pushAlert(alert));
    });
    // An alert the storage refused (docs/storage.md): no retries, since their bookkeeping cannot be written either.
    const offUnrecorded = bus.on('alertUnrecorded', 'push', ({ alert }) => {
      if (this.#options.routedByChannels?.()) return;
      this.#track(this.#pushBySeverity(alert.severity, unrecordedAlertPushMessage(alert), false));
    });
    this.#off = () => {
      offRaised();
      offUnrecorded();
    };
  }

  async stop(): Promise<void> {
    this.#off?.();
    this.#off = null;
    for (const timer of this.#timers) this.#options.clock.clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Resolves once every push started so far has an outcome (tests; the next retry may still be due). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Sends one alert to every subscription that asked for its severity. */
  async pushAlert(alert: Alert): Promise<PushTestResult> {
    return this.#pushBySeverity(alert.severity, alertPushMessage(alert), true);
  }

  #pushBySeverity(severity: Severity, message: PushMessage, retry: boolean): Promise<PushTestResult> {
    const rows = this.#options.repo.all().filter((row) => meetsSeverity(severity, row.minSeverity));
    return this.#sendAll(rows, { message, urgency: urgencyOf(severity), ttlSeconds: ttlSecondsOf(severity) }, retry);
  }

  /** A test notification to the given subscriptions (Settings' "Send a test"), no retries: the grower is watching. */
  async pushTest(rows: PushSubscriptionRow[]): Promise<PushTestResult> {
    const message: PushMessage = {
      title: 'Greenhouse gateway',
      body: 'Test notification: alerts will arrive like this.',
      severity: null,
      alertId: null,
      url: '/dashboard/settings',
      tag: 'test',
    };
    return this.#sendAll(rows, { message, urgency: 'normal', ttlSeconds: 300 }, false);
  }

  async #sendAll(rows: PushSubscriptionRow[], delivery: Delivery, retry: boolean): Promise<PushTestResult> {
    const results = await Promise.all(rows.map((row) => this.#attempt(row, delivery, retry ? 0 : null)));
    return { delivered: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length };
  }

  /** One attempt to one browser; `attempt` null means no retry. True when delivered. */
  async #attempt(row: PushSubscriptionRow, delivery: Delivery, attempt: number | null): Promise<boolean> {
    const { repo, sender, logger } = this.#options;
    const outcome = await sender.send({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, delivery.message, delivery);
    if (outcome.status === 'delivered') {
      this.#bookkeep(() => repo.recordDelivered(row.id));
      return true;
    }
    if (outcome.status === 'gone') {
      logger.info({ subscriptionId: row.id, reason: outcome.message }, 'push subscription gone: removed');
      this.#bookkeep(() => repo.removeById(row.id));
      return false;
    }
    this.#bookkeep(() => repo.recordFailure(row.id, outcome.message));
    const waitMs = attempt === null || !outcome.retryable ? undefined : this.#retryDelaysMs[attempt];
    logger.warn({ subscriptionId: row.id, reason: outcome.message, retryInMs: waitMs ?? null }, 'push not delivered');
    if (waitMs !== undefined) {
      const timer = this.#options.clock.setTimeout(() => {
        this.#timers.delete(timer);
        // The browser may have unsubscribed meanwhile: send only to a row that still exists.
        const current = repo.all().find((r) => r.id === row.id);
        if (current) this.#track(this.#attempt(current, delivery, attempt! + 1));
      }, waitMs);
      this.#timers.add(timer);
    }
    return false;
  }

  /** A subscription's delivery record: lost, not fatal, on a storage that refuses writes (the push went or not all the same). */
  #bookkeep(write: () => unknown): void {
    try {
      write();
    } catch (err) {
      if (!isStorageRefusal(err)) throw err;
      this.#options.logger.warn({ err: err.message }, 'push subscription record not written: the storage refuses writes');
    }
  }

  #track(work: Promise<unknown>): void {
    const guarded = work.catch((err: unknown) => this.#options.logger.error({ err }, 'push failed'));
    this.#inFlight.add(guarded);
    void guarded.finally(() => this.#inFlight.delete(guarded));
  }
}
