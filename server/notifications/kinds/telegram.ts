import { invalid } from '../../domain/errors.ts';
import type { ChannelSender } from './types.ts';
import { postHttp } from './http.ts';

/** A chat id (a number, negative for groups) or a public channel's @name (core.telegram.org/bots/api). */
const CHAT_ID = /^(-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;
/** A bot token as BotFather issues it: `<bot id>:<35 characters>`. */
const BOT_TOKEN = /^[0-9]{1,20}:[A-Za-z0-9_-]{30,}$/;

/**
 * The Telegram Bot API's sendMessage: target is the chat, secret the bot token (so it never appears in
 * a listing). The API answers `{ ok, description }`; `ok: false` is a failure whatever the status.
 */
export function telegramSender(options: { apiUrl: string }): ChannelSender {
  const base = options.apiUrl.replace(/\/+$/, '');
  return {
    kind: 'telegram',
    validate({ target, secret }) {
      if (!CHAT_ID.test(target)) throw invalid('target must be a Telegram chat id (a number) or @channelname', 'target');
      if (!secret) throw invalid('secret (the bot token from BotFather) is required for a Telegram channel', 'secret');
      if (!BOT_TOKEN.test(secret)) throw invalid('secret must be a bot token such as 123456:ABC-DEF… from BotFather', 'secret');
    },
    async send({ channel, message, signal }) {
      const text = `${message.title}\n${message.body}${message.link ? `\n${message.link}` : ''}`;
      const body = JSON.stringify({ chat_id: channel.target, text, disable_web_page_preview: true });
      try {
        const { text: answer } = await postHttp(`${base}/bot${channel.secret}/sendMessage`, {
          headers: { 'content-type': 'application/json' },
          body,
          signal,
        });
        const parsed = JSON.parse(answer) as { ok?: boolean; description?: string };
        if (parsed.ok !== true) throw new Error(parsed.description ?? 'Telegram refused the message');
        return 'sent';
      } catch (err) {
        // The token is part of the API's address: keep it out of the delivery log.
        throw new Error((err as Error).message.replaceAll(channel.secret ?? '\0', '<token>'), { cause: err });
      }
    },
  };
}
