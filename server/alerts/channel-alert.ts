import type { GatewayEvents } from '../events/bus.ts';
import type { ActiveAlertView, Evaluation } from './evaluator.ts';

/** What an error text may add to the alert's message: the delivery log keeps the whole of it. */
const MAX_DETAIL_CHARS = 160;

const causeKeyOf = (channelId: string) => `channel:${channelId}`;

/**
 * CHANNEL_FAILING: every attempt to deliver to an alert channel has failed for some minutes, so alerts
 * are not reaching whoever reads it (server/notifications/README.md, "A channel that fails"). One active
 * alert per channel; resolved by the channel's next delivery (an alert or a test) or its deletion.
 * HIGH, so the other channels and the phones hear of it. The target stays out of the message: an ntfy
 * topic or a webhook URL is a secret of sorts, and the alert is shown to every account.
 */
export function evaluateChannelHealth(event: GatewayEvents['channelHealthChanged'], active: ReadonlyMap<string, ActiveAlertView>): Evaluation {
  const result: Evaluation = { raise: [], escalate: [], resolve: [], clearAcknowledged: [] };
  const causeKey = causeKeyOf(event.channelId);
  const current = active.get(causeKey);
  if (!event.failing) {
    const actionTaken = event.why === 'deleted' ? `Auto-resolved: channel ${event.channelId} was deleted` : `Auto-resolved: channel ${event.channelId} delivered again`;
    if (current) result.resolve.push({ id: current.id, causeKey, actionTaken });
    return result;
  }
  if (current) return result;
  const minutes = Math.round(event.failingForMs / 60_000);
  const detail = event.detail.length > MAX_DETAIL_CHARS ? `${event.detail.slice(0, MAX_DETAIL_CHARS - 1)}…` : event.detail;
  result.raise.push({
    causeKey,
    alertType: 'CHANNEL_FAILING',
    severity: 'HIGH',
    message:
      `Alerts are not reaching channel ${event.channelId} (${event.kind}): every delivery for ${minutes} minutes failed (${detail}). ` +
      'They are retried for about four hours. Fix the channel in Settings › Alert Channels and press Test.',
    deviceId: null,
    value: null,
    threshold: null,
  });
  return result;
}
