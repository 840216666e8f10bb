import { users } from '../db/schema.ts';
import type { Db } from '../db/open.ts';
import type { EventBus } from '../events/bus.ts';
import type { Feature } from '../features.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { Preferences } from '../contract/user.ts';
import { AlertService } from './alert-service.ts';
import { AlertsRepo } from './alerts-repo.ts';
import { EmailNotifier, type EmailLimits, type SmtpConfig } from './email-notifier.ts';
import { alertRoutes, notificationRoutes } from './routes.ts';

export interface AlertsFeatureDeps {
  db: Db;
  bus: EventBus;
  settings: SettingsService;
  greenhouseId: string;
  smtp: SmtpConfig | null;
  now(): number;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  emailLimits?: Partial<EmailLimits>;
}

/** Addresses of every account that opted in to email notifications. */
export function emailRecipients(db: Db): string[] {
  return db
    .select({ email: users.email, preferences: users.preferences })
    .from(users)
    .all()
    .filter((u) => (u.preferences as Partial<Preferences> | null)?.emailNotifications === true && u.email.includes('@'))
    .map((u) => u.email);
}

/** The alerts feature: evaluator + storage + notifications, and its routes. */
export function createAlertsFeature(deps: AlertsFeatureDeps): Feature & { service: AlertService; notifier: EmailNotifier } {
  const notifier = new EmailNotifier({
    smtp: deps.smtp,
    recipients: () => emailRecipients(deps.db),
    now: deps.now,
    logger: deps.logger,
    limits: deps.emailLimits,
  });
  const service = new AlertService({
    repo: new AlertsRepo(deps.db, deps.greenhouseId, deps.now),
    bus: deps.bus,
    settings: deps.settings,
    notifier,
    now: deps.now,
    logger: deps.logger,
  });
  return {
    name: 'alerts',
    service,
    notifier,
    routes: [
      { prefix: '/alerts', plugin: alertRoutes, options: { alerts: service } },
      { prefix: '/notifications', plugin: notificationRoutes, options: { notifier } },
    ],
    start: () => service.start(),
    stop: () => service.stop(),
  };
}
