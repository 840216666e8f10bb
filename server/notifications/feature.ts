import type { MailSender } from '../alerts/mail-sender.ts';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { ChannelHealth } from './channel-health.ts';
import { ChannelService } from './channel-service.ts';
import { ChannelsRepo } from './channels-repo.ts';
import { NotificationDispatcher, type EscalationSource } from './dispatcher.ts';
import { createSenders } from './kinds/index.ts';
import type { ChannelSender } from './kinds/types.ts';
import { OutboxRepo } from './outbox-repo.ts';
import { OutboxRetention } from './outbox-retention.ts';
import { DEFAULT_OUTBOX_TIMING, OutboxWorker, type OutboxTiming } from './outbox-worker.ts';
import { StorageNews } from './storage-news.ts';
import { UnrecordedAlerts } from './unrecorded-alerts.ts';
import { publicUrlOf } from './public-url.ts';
import { channelRoutes } from './routes.ts';

export interface NotificationsUses {
  /** The SMTP connection of the alerts feature (e-mail channels share it). */
  mail: MailSender;
  alerts: EscalationSource;
  timing?: Partial<OutboxTiming>;
  /** Channel kinds other features provide (Web Push). */
  extraSenders?: readonly ChannelSender[];
}

export interface NotificationsFeature extends Feature {
  channels: ChannelService;
  worker: OutboxWorker;
  dispatcher: NotificationDispatcher;
}

/** Alert channels (webhook, ntfy, Telegram, e-mail), the persistent outbox that feeds them, escalation. */
export function createNotificationsFeature(ctx: AppContext, uses: NotificationsUses): NotificationsFeature {
  const { config, clock, bus, settings } = ctx;
  const db = ctx.database.db;
  const logger = featureLogger(ctx, 'notifications');
  const channelsRepo = new ChannelsRepo({ db, clock });
  const outbox = new OutboxRepo({ db, clock });
  const senders = createSenders({ mail: uses.mail, telegramApiUrl: config.notifications.telegramApiUrl, extra: uses.extraSenders });
  const health = new ChannelHealth((change) => bus.emit('channelHealthChanged', change));
  const worker = new OutboxWorker({ outbox, channels: channelsRepo, senders, clock, logger, timing: uses.timing, onAttempt: (attempt) => health.record(attempt) });
  const publicUrl = () => publicUrlOf(config);
  const dispatcher = new NotificationDispatcher({ bus, channels: channelsRepo, outbox, worker, alerts: uses.alerts, settings, clock, logger, publicUrl, health });
  const retention = new OutboxRetention({ outbox, settings, clock, logger });
  const channels = new ChannelService({ channels: channelsRepo, outbox, worker, senders, greenhouseId: config.greenhouseId, publicUrl, health });
  // Past the outbox, for when the database (and the outbox in it) refuses writes.
  const directSend = {
    bus,
    channels: channelsRepo,
    senders,
    clock,
    logger,
    greenhouseId: config.greenhouseId,
    publicUrl,
    attemptTimeoutMs: uses.timing?.attemptTimeoutMs ?? DEFAULT_OUTBOX_TIMING.attemptTimeoutMs,
  };
  const storageNews = new StorageNews(directSend);
  const unrecordedAlerts = new UnrecordedAlerts(directSend);
  return {
    name: 'notifications',
    channels,
    worker,
    dispatcher,
    async registerRoutes(api) {
      await api.register(channelRoutes, { prefix: '/notifications', channels });
    },
    start() {
      storageNews.start();
      unrecordedAlerts.start();
      dispatcher.start();
      worker.start();
      retention.start();
    },
    async stop() {
      retention.stop();
      dispatcher.stop();
      await worker.stop();
      await storageNews.stop();
      await unrecordedAlerts.stop();
    },
  };
}
