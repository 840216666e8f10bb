import type { ChannelKind, DeliveryReason } from '../contract/notification.ts';

/**
 * A channel whose every attempt has failed for this long is reported: longer than a router's reboot or
 * a receiver's restart, and hours before the outbox gives a delivery up (DEFAULT_OUTBOX_TIMING).
 */
export const CHANNEL_FAILING_AFTER_MS = 5 * 60_000;

/** One delivery attempt as the outbox worker recorded it. */
export interface ChannelAttempt {
  channelId: string;
  kind: ChannelKind;
  reason: DeliveryReason;
  ok: boolean;
  detail: string;
  atMs: number;
}

/** A channel started failing (every attempt for CHANNEL_FAILING_AFTER_MS), or reaches its receiver again. */
export type ChannelHealthChange =
  | { channelId: string; kind: ChannelKind; failing: true; failingForMs: number; detail: string }
  | { channelId: string; kind: ChannelKind | null; failing: false; why: 'delivered' | 'deleted' };

/**
 * Whether each channel reaches its receiver, from the outbox's attempts (server/notifications/README.md,
 * "A channel that fails"). A broken channel is otherwise found only in the delivery log, typically the
 * morning after the alert it did not deliver. In memory: after a restart a channel still failing is
 * reported again after the same wait, and its first delivery ends what was reported before.
 */
export class ChannelHealth {
  /** Channels whose attempts have failed since `sinceMs`, with no success in between. */
  readonly #failing = new Map<string, { sinceMs: number; reported: boolean }>();
  /** Channels that delivered since start and have not failed since. */
  readonly #delivering = new Set<string>();

  constructor(private readonly onChange: (change: ChannelHealthChange) => void) {}

  record(attempt: ChannelAttempt): void {
    const { channelId, kind } = attempt;
    if (attempt.ok) {
      const wasFailing = this.#failing.delete(channelId);
      // The first success since start also ends a report made before a restart.
      if (wasFailing || !this.#delivering.has(channelId)) this.onChange({ channelId, kind, failing: false, why: 'delivered' });
      this.#delivering.add(channelId);
      return;
    }
    // A failed test has the admin watching its answer; it neither starts nor ends a failure.
    if (attempt.reason === 'test') return;
    this.#delivering.delete(channelId);
    const entry = this.#failing.get(channelId) ?? { sinceMs: attempt.atMs, reported: false };
    this.#failing.set(channelId, entry);
    const failingForMs = attempt.atMs - entry.sinceMs;
    if (!entry.reported && failingForMs >= CHANNEL_FAILING_AFTER_MS) {
      entry.reported = true;
      this.onChange({ channelId, kind, failing: true, failingForMs, detail: attempt.detail });
    }
  }

  /** Reported as failing: news of a failing channel is not sent to it (it would fail and be retried for hours). */
  isFailing(channelId: string): boolean {
    return this.#failing.get(channelId)?.reported === true;
  }

  /** The channel was edited: its failures say nothing of its new settings. What was reported stays until it delivers. */
  edited(channelId: string): void {
    this.#failing.delete(channelId);
    this.#delivering.delete(channelId);
  }

  deleted(channelId: string): void {
    this.#failing.delete(channelId);
    this.#delivering.delete(channelId);
    this.onChange({ channelId, kind: null, failing: false, why: 'deleted' });
  }
}
