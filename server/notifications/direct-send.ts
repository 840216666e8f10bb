import type { Logger } from 'pino';
import type { Clock } from '../../common/clock.ts';
import type { EventBus } from '../events/bus.ts';
import type { ChannelsRepo } from './channels-repo.ts';
import { toStored, type StoredChannel } from './channels-repo.ts';
import type { SenderRegistry } from './kinds/index.ts';
import type { NotificationMessage } from './message.ts';

export interface DirectSendDeps {
  channels: Pick<ChannelsRepo, 'list'>;
  senders: SenderRegistry;
  logger: Logger;
  /** One attempt may take this long (the outbox's attemptTimeoutMs). */
  attemptTimeoutMs: number;
}

/** What a sender past the outbox (storage-news.ts, unrecorded-alerts.ts) needs besides DirectSendDeps. */
export interface PastOutboxDeps extends DirectSendDeps {
  bus: EventBus;
  clock: Clock;
  greenhouseId: string;
  publicUrl: () => string;
}

/**
 * One message to every channel (or those `admits`) now, one attempt each, without the outbox: for when
 * the outbox cannot be written (the database refuses writes, docs/storage.md). Reading the channels still
 * works then. Each outcome is logged; nothing is retried, since nothing could be stored to retry from.
 */
export async function sendToEveryChannel(
  deps: DirectSendDeps,
  message: NotificationMessage,
  admits: (channel: StoredChannel) => boolean = () => true,
): Promise<{ channels: number; delivered: number }> {
  const channels = deps.channels.list().map(toStored).filter(admits);
  const outcomes = await Promise.all(
    channels.map(async (channel) => {
      const sender = deps.senders.get(channel.kind);
      if (!sender) return false;
      try {
        const detail = await sender.send({ channel, message, deliveryId: 0, signal: AbortSignal.timeout(deps.attemptTimeoutMs) });
        deps.logger.warn({ channelId: channel.channelId, detail }, 'sent past the outbox');
        return true;
      } catch (err) {
        deps.logger.error({ err, channelId: channel.channelId }, 'could not send past the outbox');
        return false;
      }
    }),
  );
  return { channels: channels.length, delivered: outcomes.filter(Boolean).length };
}
