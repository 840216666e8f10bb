import type { Logger } from 'pino';
import type { Clock } from '../../common/clock.ts';
import type { Alert } from '../contract/alert.ts';
import type { MailSender } from './mail-sender.ts';

export interface EmailLimits {
  /** At most one email per cause within this window, so a flapping sensor cannot flood an inbox. */
  perCauseWindowMs: number;
  /** And at most this many alert emails per rolling hour overall. */
  maxPerHour: number;
}

export const DEFAULT_EMAIL_LIMITS: EmailLimits = { perCauseWindowMs: 30 * 60 * 1000, maxPerHour: 10 };
const HOUR_MS = 60 * 60 * 1000;

export interface EmailNotifierDeps {
  mail: MailSender;
  /** Addresses of users who opted in to email notifications (read when an alert is sent). */
  recipients(): string[];
  clock: Clock;
  logger: Logger;
  limits?: Partial<EmailLimits>;
}

/**
 * Emails CRITICAL alerts to opted-in users. Sending is fire-and-forget: the evaluator never waits for
 * SMTP and a failing mail server only produces a log line. The limits count alert notifications (one
 * per alert, sent to each recipient), not individual messages.
 */
export class EmailNotifier {
  readonly #limits: EmailLimits;
  readonly #lastSentByCause = new Map<string, number>();
  #sentAtMs: number[] = [];
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly deps: EmailNotifierDeps) {
    this.#limits = { ...DEFAULT_EMAIL_LIMITS, ...deps.limits };
  }

  get configured(): boolean {
    return this.deps.mail.configured;
  }

  /** Called for every raised or escalated alert; only CRITICAL ones may send. */
  notify(alert: Alert, causeKey: string | null): void {
    if (alert.severity !== 'CRITICAL' || !this.deps.mail.configured) return;
    const nowMs = this.deps.clock.now();
    const cause = causeKey ?? `type:${alert.alertType}`;
    const last = this.#lastSentByCause.get(cause);
    if (last !== undefined && nowMs - last < this.#limits.perCauseWindowMs) return;
    this.#sentAtMs = this.#sentAtMs.filter((t) => nowMs - t < HOUR_MS);
    if (this.#sentAtMs.length >= this.#limits.maxPerHour) {
      this.deps.logger.warn({ alertId: alert._id, cause }, 'alert email skipped: hourly limit reached');
      return;
    }
    let recipients: string[];
    try {
      recipients = this.deps.recipients();
    } catch (err) {
      this.deps.logger.error({ err }, 'alert email: could not read recipients');
      return;
    }
    if (recipients.length === 0) return;
    this.#lastSentByCause.set(cause, nowMs);
    this.#sentAtMs.push(nowMs);
    const sending = this.#send(alert, recipients).finally(() => this.#pending.delete(sending));
    this.#pending.add(sending);
  }

  /** Resolves when every email started so far has been handed to the server or failed (tests, shutdown). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  close(): void {
    this.deps.mail.close();
  }

  async #send(alert: Alert, recipients: string[]): Promise<void> {
    const type = alert.alertType.replaceAll('_', ' ');
    const subject = `[Greenhouse ${alert.greenhouseId}] CRITICAL: ${type}`;
    const text = [
      `A critical alert was raised in greenhouse ${alert.greenhouseId}.`,
      '',
      `Type: ${type}`,
      `Message: ${alert.message}`,
      ...(alert.deviceId ? [`Device: ${alert.deviceId}`] : []),
      `Raised at: ${alert.createdAt}`,
      '',
      'Open the dashboard (Alert System) to see and resolve it.',
    ].join('\n');
    // One message per recipient so addresses are not disclosed to each other, each in its own try: a
    // refused or mistyped address must not stop the mail to everyone after it.
    for (const to of recipients) {
      try {
        await this.deps.mail.send({ to, subject, text });
      } catch (err) {
        this.deps.logger.error({ err, alertId: alert._id, to }, 'alert email failed');
      }
    }
  }
}
