import type { Logger } from 'pino';
import type { ChannelsRepo } from './channels-repo.ts';
import { toStored } from './channels-repo.ts';
import type { SenderRegistry } from './kinds/index.ts';
import type { NotificationMessage } from './message.ts';

export interface DirectSendDeps {
  channels: Pick<ChannelsRepo, 'list'>;
  senders: SenderRegistry;
  logger: Logger;
  /** One attempt may take this long (the outbox's attemptTimeoutMs). */
  attemptTimeoutMs: number;
}

/**
 * One message to every channel now, one attempt each, without the outbox: for when the outbox cannot
 * be written (the database refuses writes, docs/storage.md). Reading the channels still works then.
 * Each outcome is logged; nothing is retried, since nothing could be stored to retry from.
 */
export async function sendToEveryChannel(deps: DirectSendDeps, message: NotificationMessage): Promise<{ channels: number; delivered: number }> {
  const rows = deps.channels.list();
  const outcomes = await Promise.all(
    rows.map(async (row) => {
      const channel = toStored(row);
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
  return { channels: rows.length, delivered: outcomes.filter(Boolean).length };
}
