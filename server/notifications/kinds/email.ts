import { invalid } from '../../domain/errors.ts';
import type { MailSender } from '../../alerts/mail-sender.ts';
import type { ChannelSender } from './types.ts';

/** Deliberately loose (one @, no spaces): the mail server is the judge of an address. */
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/** One address per channel, through the gateway's SMTP connection; one channel per recipient. */
export function emailSender(options: { mail: MailSender }): ChannelSender {
  return {
    kind: 'email',
    validate({ target, secret }) {
      if (!options.mail.configured) throw invalid('kind email needs an smtp server in the gateway config', 'kind');
      if (!ADDRESS.test(target) || target.length > 254) throw invalid('target must be an e-mail address', 'target');
      if (secret) throw invalid('secret is not used by e-mail channels', 'secret');
    },
    async send({ channel, message, signal }) {
      const sending = options.mail.send({
        to: channel.target,
        subject: `[Greenhouse ${message.greenhouseId}] ${message.title}`,
        text: `${message.body}${message.link ? `\n\nOpen: ${message.link}` : ''}`,
      });
      // nodemailer cannot be cancelled: stop waiting on timeout and let its own socket timeout end it.
      const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }));
      sending.catch(() => undefined);
      await Promise.race([sending, aborted]);
      return 'sent';
    },
  };
}
