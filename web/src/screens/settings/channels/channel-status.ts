// What a channel's row says of its deliveries, from the delivery log: whether its newest attempt reached
// the receiver. A broken channel shows on its own row, not only deep in the log (and as a CHANNEL_FAILING
// alert once it has failed for minutes: server/notifications/README.md, "A channel that fails").
import type { Delivery } from '../../../../../server/contract/notification.ts';

export type ChannelStatus =
  | { state: 'unused' }
  | { state: 'delivering'; lastAt: string }
  | { state: 'failing'; lastAt: string; detail: string | null; retrying: number };

export function channelStatus(log: readonly Delivery[], channelId: string): ChannelStatus {
  let newest: { at: string; ok: boolean; detail: string | null } | null = null;
  let retrying = 0;
  for (const delivery of log) {
    if (delivery.channelId !== channelId) continue;
    if (delivery.status === 'pending' && delivery.attempts > 0) retrying++;
    for (const attempt of delivery.tries) if (!newest || Date.parse(attempt.at) > Date.parse(newest.at)) newest = attempt;
  }
  if (!newest) return { state: 'unused' };
  return newest.ok ? { state: 'delivering', lastAt: newest.at } : { state: 'failing', lastAt: newest.at, detail: newest.detail, retrying };
}
