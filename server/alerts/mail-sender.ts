import type { Transporter } from 'nodemailer';
import type { Config } from '../config/schema.ts';

export type SmtpConfig = NonNullable<Config['smtp']>;

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * The one SMTP connection of the gateway (alert e-mails to opted-in users and e-mail channels). One
 * message per call: a refused recipient fails only its own message.
 */
export class MailSender {
  #transport: Transporter | null = null;

  constructor(private readonly smtp: SmtpConfig | null) {}

  get configured(): boolean {
    return this.smtp !== null;
  }

  async send(mail: Mail): Promise<void> {
    const smtp = this.smtp;
    if (!smtp) throw new Error('no smtp server is configured');
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
    await this.#transport.sendMail({ from: smtp.from, ...mail });
  }

  close(): void {
    this.#transport?.close();
    this.#transport = null;
  }
}
