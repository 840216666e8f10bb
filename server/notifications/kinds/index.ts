import type { MailSender } from '../../alerts/mail-sender.ts';
import type { ChannelKind } from '../../contract/notification.ts';
import { emailSender } from './email.ts';
import { ntfySender } from './ntfy.ts';
import { telegramSender } from './telegram.ts';
import type { ChannelSender } from './types.ts';
import { webhookSender } from './webhook.ts';

export type SenderRegistry = ReadonlyMap<ChannelKind, ChannelSender>;

/** Every kind of channel the gateway can send to; a new kind is one more entry (README.md). */
export function createSenders(options: { mail: MailSender; telegramApiUrl: string }): SenderRegistry {
  const senders: ChannelSender[] = [webhookSender(), ntfySender(), telegramSender({ apiUrl: options.telegramApiUrl }), emailSender({ mail: options.mail })];
  return new Map(senders.map((s) => [s.kind, s]));
}
