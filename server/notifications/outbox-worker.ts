import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { ChannelsRepo } from './channels-repo.ts';
import { toStored } from './channels-repo.ts';
import type { ChannelAttempt } from './channel-health.ts';
import type { SenderRegistry } from './kinds/index.ts';
import type { NotificationMessage } from './message.ts';
import type { OutboxRepo, OutboxRow } from './outbox-repo.ts';

export interface OutboxTiming {
  /** One attempt may take this long before it counts as failed (a hanging receiver). */
  attemptTimeoutMs: number;
  /** The wait after the n-th failed attempt; past the end of the list the delivery has failed for good. */
  backoffMs: readonly number[];
  /** The longest sleep between looks at the outbox, so a wall-clock step cannot stall it for hours. */
  maxIdleMs: number;
}

const MINUTE_MS = 60_000;
/** The outbox is looked at no more often than this while deliveries are due but cannot start. */
const MIN_WAKE_MS = 1000;

/** Ten retries over about four and a half hours: long enough for a router's reboot or an ISP's hiccup. */
export const DEFAULT_OUTBOX_TIMING: OutboxTiming = {
  attemptTimeoutMs: 15_000,
  backoffMs: [0.5, 1, 2, 5, 10, 30, 30, 30, 60, 60].map((m) => m * MINUTE_MS),
  maxIdleMs: 5 * MINUTE_MS,
};

export interface OutboxWorkerDeps {
  outbox: OutboxRepo;
  channels: ChannelsRepo;
  senders: SenderRegistry;
  clock: Clock;
  logger: Logger;
  timing?: Partial<OutboxTiming>;
  /** Told of every attempt once it is recorded (the channels' health, ./channel-health.ts). */
  onAttempt?: (attempt: ChannelAttempt) => void;
}

/**
 * Sends what the outbox holds. Each channel has at most one attempt in flight and every attempt has a
 * timeout on the injected clock, so a failing or hanging channel delays only its own deliveries. Test
 * deliveries get a single attempt (the admin is watching the answer).
 */
export class OutboxWorker {
  readonly #timing: OutboxTiming;
  readonly #busyChannels = new Set<string>();
  readonly #inFlight = new Map<number, { controller: AbortController; done: Promise<void> }>();
  readonly #waiters = new Map<number, Array<() => void>>();
  #timer: TimerHandle | null = null;
  #running = false;

  constructor(private readonly deps: OutboxWorkerDeps) {
    this.#timing = { ...DEFAULT_OUTBOX_TIMING, ...deps.timing };
  }

  /** Picks up what a previous run left pending (a restart, a power cut) at once. */
  start(): void {
    this.#running = true;
    this.kick();
  }

  /** Stops waiting on receivers: attempts in flight are aborted and stay pending for the next start. */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    for (const { controller } of this.#inFlight.values()) controller.abort();
    await Promise.allSettled([...this.#inFlight.values()].map((f) => f.done));
  }

  /** Looks at the outbox now: called after anything is queued and after every attempt. */
  kick(): void {
    if (!this.#running) return;
    const nowMs = this.deps.clock.now();
    for (const row of this.deps.outbox.due(nowMs)) {
      if (this.#busyChannels.has(row.channelId) || this.#inFlight.has(row.id)) continue;
      this.#attempt(row);
    }
    this.#schedule();
  }

  /** Resolves once the delivery has had its next attempt (the test button waits on this). */
  attempted(id: number): Promise<void> {
    return new Promise((resolve) => {
      const list = this.#waiters.get(id) ?? [];
      list.push(resolve);
      this.#waiters.set(id, list);
    });
  }

  /** Resolves when no attempt is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()].map((f) => f.done));
  }

  #schedule(): void {
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#running) return;
    // A due row whose channel is busy is picked up when that channel's attempt ends (kick), not by spinning.
    const nextMs = this.deps.outbox.nextDueMs([...this.#busyChannels]);
    const waitMs = nextMs === null ? this.#timing.maxIdleMs : Math.min(this.#timing.maxIdleMs, Math.max(0, nextMs - this.deps.clock.now()));
    this.#timer = this.deps.clock.setTimeout(() => this.kick(), Math.max(waitMs, MIN_WAKE_MS));
  }

  #attempt(row: OutboxRow): void {
    const controller = new AbortController();
    this.#busyChannels.add(row.channelId);
    const timeout = this.deps.clock.setTimeout(() => controller.abort(), this.#timing.attemptTimeoutMs);
    const done = this.#send(row, controller.signal).then(
      (detail) => this.#finish(row, { ok: true, detail }),
      (err: unknown) => this.#finish(row, { ok: false, detail: err instanceof Error ? err.message : String(err) }),
    ).finally(() => {
      this.deps.clock.clearTimeout(timeout);
      this.#busyChannels.delete(row.channelId);
      this.#inFlight.delete(row.id);
      for (const resolve of this.#waiters.get(row.id) ?? []) resolve();
      this.#waiters.delete(row.id);
      this.kick();
    });
    this.#inFlight.set(row.id, { controller, done });
  }

  async #send(row: OutboxRow, signal: AbortSignal): Promise<string> {
    const channelRow = this.deps.channels.find(row.channelId);
    if (!channelRow) throw new Error('the channel was deleted');
    const channel = toStored(channelRow);
    const sender = this.deps.senders.get(channel.kind);
    if (!sender) throw new Error(`no sender for kind ${channel.kind}`);
    return sender.send({ channel, message: row.payload as NotificationMessage, deliveryId: row.id, signal });
  }

  #finish(row: OutboxRow, outcome: { ok: boolean; detail: string }): void {
    // Stopping aborts attempts in flight: not the receiver's fault, so no attempt is counted.
    if (!this.#running && !outcome.ok) return;
    const attempts = row.attempts + 1;
    const waitMs = row.reason === 'test' ? undefined : this.#timing.backoffMs[attempts - 1];
    const nextAttemptAtMs = outcome.ok || waitMs === undefined ? null : this.deps.clock.now() + waitMs;
    try {
      this.deps.outbox.recordAttempt(row.id, { ...outcome, nextAttemptAtMs });
    } catch (err) {
      this.deps.logger.error({ err, deliveryId: row.id }, 'could not record a delivery attempt');
      return;
    }
    // A deleted channel's deliveries fail until they give up: that is not a channel failing.
    const channelRow = this.deps.onAttempt ? this.deps.channels.find(row.channelId) : undefined;
    if (channelRow) this.deps.onAttempt?.({ channelId: row.channelId, kind: toStored(channelRow).kind, reason: row.reason, ok: outcome.ok, detail: outcome.detail, atMs: this.deps.clock.now() });
    if (!outcome.ok) {
      const level = nextAttemptAtMs === null ? 'error' : 'warn';
      this.deps.logger[level]({ deliveryId: row.id, channelId: row.channelId, attempts, reason: outcome.detail }, nextAttemptAtMs === null ? 'notification failed for good' : 'notification failed; will retry');
    }
  }
}
