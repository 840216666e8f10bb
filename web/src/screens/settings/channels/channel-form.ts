// What the channel form says per kind, and how a stored channel becomes a form.
import type { ChannelKind, NotificationChannel } from '../../../../../server/contract/notification.ts';
import type { ChannelForm } from '../../../api/notifications.ts';

export const KIND_TEXT: Record<ChannelKind, { label: string; target: string; targetHint: string; secret: string; secretHint: string }> = {
  webhook: {
    label: 'Webhook',
    target: 'URL',
    targetHint: 'The alert is POSTed as JSON (Home Assistant, Node-RED, your own service).',
    secret: 'Signing secret (optional)',
    secretHint: 'At least 16 characters; the body is signed in X-Greenhouse-Signature: sha256=<HMAC>.',
  },
  ntfy: {
    label: 'ntfy',
    target: 'Topic URL',
    targetHint: 'e.g. https://ntfy.sh/my-greenhouse-7f3a or your own server; the phone app subscribes to it.',
    secret: 'Access token (optional)',
    secretHint: 'For a protected topic on your own ntfy server.',
  },
  telegram: {
    label: 'Telegram',
    target: 'Chat id',
    targetHint: 'A number (negative for groups) or @channelname; the bot must be a member.',
    secret: 'Bot token',
    secretHint: 'From BotFather, e.g. 123456:ABC-DEF…',
  },
  email: {
    label: 'E-mail',
    target: 'Address',
    targetHint: 'Sent through the gateway’s SMTP server; one channel per address.',
    secret: '',
    secretHint: '',
  },
};

export const EMPTY_FORM: ChannelForm = { channelId: '', kind: 'ntfy', target: '', minSeverity: 'HIGH', quietHours: null, secret: '' };

export function formOf(channel: NotificationChannel): ChannelForm {
  return { channelId: channel.channelId, kind: channel.kind, target: channel.target, minSeverity: channel.minSeverity, quietHours: channel.quietHours, secret: '' };
}
