import type { Agent } from 'node:https';
import { featureLogger, type AppContext } from '../context.ts';
import type { Feature } from '../features.ts';
import type { ChannelSender } from '../notifications/kinds/types.ts';
import { AlertPusher } from './alert-pusher.ts';
import { webPushChannelSender } from './channel-sender.ts';
import { pushRoutes } from './routes.ts';
import { PushSubscriptionsRepo } from './subscriptions-repo.ts';
import { loadOrCreateVapidKeys } from './vapid-keys.ts';
import { WebPushSender } from './web-push-sender.ts';

export interface PushFeatureOptions {
  /** Only for tests: the agent that trusts a loopback push receiver. */
  agent?: Agent;
  retryDelaysMs?: readonly number[];
}

/** What push asks of other features. */
export interface PushUses {
  /** The account id of a username (the accounts feature owns the users table). */
  accountId: (username: string) => number | null;
  /**
   * True while a `webpush` channel exists: the notification outbox then pushes alerts (with its quiet
   * hours, escalation and delivery log), and the direct path stays quiet so nobody gets each alert twice.
   */
  routedByChannels: () => boolean;
}

export interface PushFeature extends Feature {
  /** The `webpush` kind of the notification outbox. */
  channelSender: ChannelSender;
  pusher: AlertPusher;
  sender: WebPushSender;
  repo: PushSubscriptionsRepo;
}

/**
 * Web Push of alerts to installed dashboards (docs/https.md): VAPID keys made once in the data dir,
 * subscriptions per account, and every raised alert pushed to the browsers that asked for its severity.
 * Browsers subscribe only on a secure origin, so in practice over the gateway's HTTPS.
 */
export function createPushFeature(ctx: AppContext, uses: PushUses, options: PushFeatureOptions = {}): PushFeature {
  const { config, clock } = ctx;
  const vapid = loadOrCreateVapidKeys(config.dataDir);
  const repo = new PushSubscriptionsRepo({ db: ctx.database.db, clock });
  const sender = new WebPushSender({ vapid, subject: config.webPush.subject, agent: options.agent });
  const pusher = new AlertPusher({ repo, sender, clock, logger: featureLogger(ctx, 'push'), retryDelaysMs: options.retryDelaysMs, routedByChannels: uses.routedByChannels });
  return {
    name: 'push',
    channelSender: webPushChannelSender({ repo, sender, accountId: uses.accountId }),
    pusher,
    sender,
    repo,
    async registerRoutes(authenticated) {
      await authenticated.register(pushRoutes, { repo, pusher, publicKey: vapid.publicKey, endpointHosts: config.webPush.endpointHosts });
    },
    start() {
      pusher.start(ctx.bus);
    },
    stop: () => pusher.stop(),
  };
}
