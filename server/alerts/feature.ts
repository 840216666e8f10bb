import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { SensorType } from '../contract/reading.ts';
import type { Feature } from '../features.ts';
import { AlertService } from './alert-service.ts';
import { AlertsRepo } from './alerts-repo.ts';
import { EmailNotifier } from './email-notifier.ts';
import { MailSender } from './mail-sender.ts';
import { alertRoutes, notificationRoutes } from './routes.ts';

export interface AlertsFeature extends Feature {
  service: AlertService;
  notifier: EmailNotifier;
  /** The SMTP connection, shared with e-mail channels (server/notifications). */
  mail: MailSender;
}

/** The alerts feature: evaluator + storage + notifications, and its routes. */
/** What alerts ask of the devices feature: who depends on a sensor, and whether a lockout persists. */
export interface AlertsUses {
  /** Who receives alert e-mails: the accounts feature owns the users table (default: nobody). */
  emailRecipients?: () => string[];
  dependentsOf?: (sensorType: SensorType) => string[];
  lockoutCause?: (alertType: string, deviceId: string | null) => string | null;
}

export function createAlertsFeature(ctx: AppContext, uses: AlertsUses = {}): AlertsFeature {
  const { config, clock, bus, settings } = ctx;
  const db = ctx.database.db;
  const logger = featureLogger(ctx, 'alerts');
  const mail = new MailSender(config.smtp);
  const notifier = new EmailNotifier({ mail, recipients: () => uses.emailRecipients?.() ?? [], clock, logger });
  const service = new AlertService({
    repo: new AlertsRepo({ db, greenhouseId: config.greenhouseId, clock }),
    bus,
    settings,
    notifier,
    clock,
    logger,
    dependentsOf: uses.dependentsOf,
    lockoutCause: uses.lockoutCause,
  });
  return {
    name: 'alerts',
    service,
    notifier,
    mail,
    async registerRoutes(api) {
      await api.register(alertRoutes, { prefix: '/alerts', alerts: service });
      await api.register(notificationRoutes, { prefix: '/notifications', notifier });
    },
    start: () => service.start(),
    stop: () => service.stop(),
  };
}
