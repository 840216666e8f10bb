import type { Severity } from '../../contract/alert.ts';
import { invalid } from '../../domain/errors.ts';
import type { ChannelSender } from './types.ts';
import { postHttp, requireHttpUrl } from './http.ts';

/** ntfy's priorities (docs.ntfy.sh/publish, "Message priority"): 5 rings through Do Not Disturb. */
export const NTFY_PRIORITY: Record<Severity, number> = { CRITICAL: 5, HIGH: 4, MEDIUM: 3, LOW: 2 };

/** Header values are Latin-1 on the wire; ntfy decodes RFC 2047 encoded words for anything else. */
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * Publishes to a topic URL (a self-hosted server or ntfy.sh) with the message as body, priority by
 * severity and a click link to the alert; the secret, when set, is an access token of that server.
 */
export function ntfySender(): ChannelSender {
  return {
    kind: 'ntfy',
    validate({ target }) {
      const url = requireHttpUrl(target, 'target');
      if (url.pathname.replace(/\/+$/, '') === '') throw invalid('target must be a topic URL (https://ntfy.example/<topic>)', 'target');
    },
    async send({ channel, message, signal }) {
      const headers: Record<string, string> = {
        'content-type': 'text/plain; charset=utf-8',
        title: headerText(message.title),
        priority: String(NTFY_PRIORITY[message.severity]),
        tags: message.severity === 'CRITICAL' ? 'rotating_light' : message.event === 'test' ? 'white_check_mark' : 'warning',
      };
      if (message.link) headers.click = message.link;
      if (channel.secret) headers.authorization = `Bearer ${channel.secret}`;
      const { status } = await postHttp(channel.target, { headers, body: message.body, signal });
      return `HTTP ${status}`;
    },
  };
}
