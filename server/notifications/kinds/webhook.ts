import { createHmac } from 'node:crypto';
import type { ChannelSender } from './types.ts';
import { postHttp, requireHttpUrl } from './http.ts';

/** `sha256=<hex HMAC-SHA256 of the exact body>` (the convention GitHub's webhooks made common). */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** JSON POST of the message; signed in `X-Greenhouse-Signature` when the channel has a secret. */
export function webhookSender(): ChannelSender {
  return {
    kind: 'webhook',
    validate({ target }) {
      requireHttpUrl(target, 'target');
    },
    async send({ channel, message, deliveryId, signal }) {
      const body = JSON.stringify({ deliveryId, ...message });
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'greenhouse-gateway' };
      if (channel.secret) headers['x-greenhouse-signature'] = signatureOf(body, channel.secret);
      const { status } = await postHttp(channel.target, { headers, body, signal });
      return `HTTP ${status}`;
    },
  };
}
