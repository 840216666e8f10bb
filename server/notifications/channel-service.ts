import type { Severity } from '../contract/alert.ts';
import type { ChannelKind, ChannelTestResult, Delivery, NotificationChannel, QuietHours } from '../contract/notification.ts';
import { conflict, invalid, notFound } from '../domain/errors.ts';
import type { ChannelHealth } from './channel-health.ts';
import { ChannelsRepo, toStored, toWire, type StoredChannel } from './channels-repo.ts';
import type { SenderRegistry } from './kinds/index.ts';
import { testMessage } from './message.ts';
import type { OutboxRepo } from './outbox-repo.ts';
import type { OutboxWorker } from './outbox-worker.ts';

/** Shorter secrets are guessable: an HMAC key or a token needs some length to mean anything. */
export const MIN_SECRET_CHARS = 16;

export interface ChannelInput {
  kind: ChannelKind;
  target: string;
  minSeverity: Severity;
  quietHours?: QuietHours | null;
  /** Omitted on an update: keep the stored one; null: remove it. */
  secret?: string | null;
}

export interface ChannelServiceDeps {
  channels: ChannelsRepo;
  outbox: OutboxRepo;
  worker: OutboxWorker;
  senders: SenderRegistry;
  greenhouseId: string;
  publicUrl: () => string;
  /** Told of edits and deletions: a channel's failures end with it (./channel-health.ts). */
  health?: Pick<ChannelHealth, 'edited' | 'deleted'>;
}

/** The admin's channels: checked at the boundary (400 naming the field), stored, tested. */
export class ChannelService {
  constructor(private readonly deps: ChannelServiceDeps) {}

  list(): NotificationChannel[] {
    return this.deps.channels.list().map(toWire);
  }

  create(channelId: string, input: ChannelInput): NotificationChannel {
    if (this.deps.channels.find(channelId)) throw conflict(`A channel named ${channelId} already exists`);
    const channel = this.#checked({ channelId, ...input, quietHours: input.quietHours ?? null, secret: input.secret ?? null });
    return toWire(this.deps.channels.insert(channel));
  }

  update(channelId: string, changes: Partial<ChannelInput>): NotificationChannel {
    const row = this.deps.channels.find(channelId);
    if (!row) throw notFound(`Channel ${channelId} not found`);
    const current = toStored(row);
    const next: StoredChannel = {
      ...current,
      ...(changes.kind !== undefined ? { kind: changes.kind } : {}),
      ...(changes.target !== undefined ? { target: changes.target } : {}),
      ...(changes.minSeverity !== undefined ? { minSeverity: changes.minSeverity } : {}),
      ...(changes.quietHours !== undefined ? { quietHours: changes.quietHours } : {}),
      ...(changes.secret !== undefined ? { secret: changes.secret } : {}),
    };
    const updated = toWire(this.deps.channels.update(this.#checked(next)));
    this.deps.health?.edited(channelId);
    return updated;
  }

  delete(channelId: string): void {
    if (!this.deps.channels.delete(channelId)) throw notFound(`Channel ${channelId} not found`);
    this.deps.health?.deleted(channelId);
  }

  /** Queues a test message (quiet hours and minimum severity do not apply) and answers its first attempt. */
  async test(channelId: string): Promise<ChannelTestResult> {
    if (!this.deps.channels.find(channelId)) throw notFound(`Channel ${channelId} not found`);
    const row = this.deps.outbox.enqueue({ channelId, alertId: null, reason: 'test', message: testMessage(this.deps.greenhouseId, channelId, this.deps.publicUrl()) });
    const attempted = this.deps.worker.attempted(row.id);
    this.deps.worker.kick();
    await attempted;
    const delivery = this.deps.outbox.delivery(row.id) as Delivery;
    const last = delivery.tries.at(-1);
    return { delivered: delivery.status === 'delivered', detail: last?.detail ?? null, delivery };
  }

  log(options: { limit: number; channelId?: string }): Delivery[] {
    return this.deps.outbox.log(options);
  }

  #checked(channel: StoredChannel): StoredChannel {
    if (channel.secret !== null && channel.secret.length < MIN_SECRET_CHARS) {
      throw invalid(`secret must be at least ${MIN_SECRET_CHARS} characters`, 'secret');
    }
    if (channel.quietHours && channel.quietHours.from === channel.quietHours.to) {
      throw invalid('quietHours.to must differ from quietHours.from (an empty or a whole-day window)', 'quietHours.to');
    }
    const sender = this.deps.senders.get(channel.kind);
    if (!sender) throw invalid(`kind ${channel.kind} is not available`, 'kind');
    sender.validate({ target: channel.target, secret: channel.secret });
    return channel;
  }
}
