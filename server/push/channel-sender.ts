import type { PushMessage } from '../contract/push.ts';
import { invalid } from '../domain/errors.ts';
import type { NotificationMessage } from '../notifications/message.ts';
import type { ChannelSender } from '../notifications/kinds/types.ts';
import { meetsSeverity, ttlSecondsOf, urgencyOf } from './alert-message.ts';
import type { PushSubscriptionRow, PushSubscriptionsRepo } from './subscriptions-repo.ts';
import type { WebPushSender } from './web-push-sender.ts';

/** Every account's browsers. */
export const ALL_ACCOUNTS = '*';

export interface WebPushChannelOptions {
  repo: PushSubscriptionsRepo;
  sender: WebPushSender;
  /** The account id of a username, or null when there is none. */
  accountId: (username: string) => number | null;
}

/**
 * Web Push as a channel kind of the notification outbox (server/notifications/README.md): target is a
 * username or `*`, and a delivery goes to the browsers those accounts subscribed (Settings › Phone App),
 * each at or above its own chosen severity (a test, an escalation and a gateway failure go to all).
 * The outbox brings retries, quiet hours, escalation and the delivery log. Each browser is sent to on
 * its own; the delivery succeeds when one took it (the others are recorded on their subscription), and
 * fails, to be retried, when none did.
 */
export function webPushChannelSender(options: WebPushChannelOptions): ChannelSender {
  const { repo, sender } = options;
  const browsersOf = (target: string): PushSubscriptionRow[] => {
    if (target === ALL_ACCOUNTS) return repo.all();
    const id = options.accountId(target);
    return id === null ? [] : repo.forUser(id);
  };
  return {
    kind: 'webpush',
    validate({ target, secret }) {
      if (target !== ALL_ACCOUNTS && options.accountId(target) === null) throw invalid(`target must be a username or ${ALL_ACCOUNTS} (every account)`, 'target');
      if (secret) throw invalid('secret is not used by webpush channels', 'secret');
    },
    async send({ channel, message }) {
      const everyone = message.event !== 'alert';
      const rows = browsersOf(channel.target).filter((row) => everyone || meetsSeverity(message.severity, row.minSeverity));
      if (rows.length === 0) throw new Error(`no browser of ${channel.target === ALL_ACCOUNTS ? 'any account' : channel.target} has turned on alerts`);
      const push = pushMessageOf(message);
      const delivery = { urgency: urgencyOf(message.severity), ttlSeconds: ttlSecondsOf(message.severity) };
      const outcomes = await Promise.all(
        rows.map(async (row) => {
          const outcome = await sender.send({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, push, delivery);
          if (outcome.status === 'delivered') repo.recordDelivered(row.id);
          else if (outcome.status === 'gone') repo.removeById(row.id);
          else repo.recordFailure(row.id, outcome.message);
          return outcome;
        }),
      );
      const delivered = outcomes.filter((o) => o.status === 'delivered').length;
      if (delivered === 0) {
        const reason = outcomes.find((o) => o.status !== 'delivered') as { message: string };
        throw new Error(`no browser took it: ${reason.message}`);
      }
      return `pushed to ${delivered} of ${rows.length} browser${rows.length === 1 ? '' : 's'}`;
    },
  };
}

/** The outbox's message as the service worker shows it; the link stays on the dashboard's own origin. */
export function pushMessageOf(message: NotificationMessage): PushMessage {
  const link = message.link ? new URL(message.link) : null;
  return {
    title: message.title,
    body: message.body.slice(0, 500),
    severity: message.severity,
    alertId: message.alert?._id ?? null,
    url: link && link.pathname.startsWith('/dashboard') ? `${link.pathname}${link.search}` : '/dashboard/alerts',
    tag: message.alert ? `alert-${message.alert._id}` : `notification-${message.event}`,
  };
}
