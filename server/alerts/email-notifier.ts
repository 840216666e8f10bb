import type { Logger } from 'pino';
import type { Clock } from '../../common/clock.ts';
import type { Transporter } from 'nodemailer';
import type { Alert } from '../contract/alert.ts';
import type { Config } from '../config/schema.ts';

export type SmtpConfig = NonNullable<Config['smtp']>;

export interface EmailLimits {
  /** At most one email per cause within this window, so a flapping sensor cannot flood an inbox. */
  perCauseWindowMs: number;
  /** And at most this many alert emails per rolling hour overall. */
  maxPerHour: number;
}

export const DEFAULT_EMAIL_LIMITS: EmailLimits = { perCauseWindowMs: 30 * 60 * 1000, maxPerHour: 10 };
const HOUR_MS = 60 * 60 * 1000;

export interface EmailNotifierDeps {
  smtp: SmtpConfig | null;
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
  #transport: Transporter | null = null;
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly deps: EmailNotifierDeps) {
    this.#limits = { ...DEFAULT_EMAIL_LIMITS, ...deps.limits };
  }

  get configured(): boolean {
    return this.deps.smtp !== null;
  }

  /** Called for every raised or escalated alert; only CRITICAL ones may send. */
  notify(alert: Alert, causeKey: string | null): void {
    if (alert.severity !== 'CRITICAL' || !this.deps.smtp) return;
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
    this.#transport?.close();
    this.#transport = null;
  }

  async #send(alert: Alert, recipients: string[]): Promise<void> {
    const smtp = this.deps.smtp!;
    try {
      // Loaded on the first alert email only: most gateways never mail, and nodemailer is the biggest
      // package the server would otherwise keep in memory (bench/footprint.bench.ts).
      const { default: nodemailer } = await import('nodemailer');
      this.#transport ??= nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
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
      // One message per recipient so addresses are not disclosed to each other.
      for (const to of recipients) {
        await this.#transport.sendMail({ from: smtp.from, to, subject, text });
      }
    } catch (err) {
      this.deps.logger.error({ err, alertId: alert._id }, 'alert email failed');
    }
  }
}
