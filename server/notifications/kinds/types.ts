import type { ChannelKind } from '../../contract/notification.ts';
import type { NotificationMessage } from '../message.ts';

export interface ChannelAddress {
  channelId: string;
  kind: ChannelKind;
  target: string;
  secret: string | null;
}

export interface SendRequest {
  channel: ChannelAddress;
  message: NotificationMessage;
  /** The outbox row: receivers can drop a repeat of a delivery they already have. */
  deliveryId: number;
  /** Aborted when the attempt times out or the gateway stops: stop waiting and give up this attempt. */
  signal: AbortSignal;
}

/**
 * One way of reaching a grower (server/notifications/README.md, "Adding a kind"). A sender keeps no
 * state between calls: the outbox retries, times out and logs.
 */
export interface ChannelSender {
  readonly kind: ChannelKind;
  /** Throws `invalid(message, field)` for a target or secret this kind cannot use. */
  validate(channel: { target: string; secret: string | null }): void;
  /** Resolves with a short detail ("HTTP 200") once the receiver took it; throws saying why not. */
  send(request: SendRequest): Promise<string>;
}
