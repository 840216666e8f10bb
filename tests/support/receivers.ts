import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Webhook receivers: whether X-Greenhouse-Signature matched the HMAC of the body under the secret. */
  signatureValid?: boolean;
}

/** What the receiver does with the next requests: answer normally, fail with a status, or never answer. */
export type Behaviour = 'ok' | { status: number } | 'hang';

type Flavour = { kind: 'webhook'; secret?: string } | { kind: 'ntfy' } | { kind: 'telegram'; token: string };

/**
 * A local receiver on a loopback port that answers like the service it stands in for: a webhook
 * endpoint that checks the signature (401 when it does not match), ntfy's publish API (the message
 * JSON back), or the Telegram Bot API's sendMessage (`{ ok, result }`, 401 for an unknown token).
 */
export async function startReceiver(flavour: Flavour) {
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let behaviour: Behaviour = 'ok';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: ReceivedRequest = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body };
      received.push(entry);
      if (behaviour === 'hang') {
        hanging.add(response);
        return;
      }
      if (behaviour !== 'ok') {
        response.writeHead(behaviour.status, { 'content-type': 'text/plain' }).end('receiver down for maintenance');
        return;
      }
      answer(flavour, entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    url: `http://127.0.0.1:${port}`,
    set(next: Behaviour) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(flavour: Flavour, entry: ReceivedRequest, response: ServerResponse): void {
  const json = (status: number, value: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  switch (flavour.kind) {
    case 'webhook': {
      if (flavour.secret) {
        const expected = Buffer.from(`sha256=${createHmac('sha256', flavour.secret).update(entry.body).digest('hex')}`);
        const given = Buffer.from(String(entry.headers['x-greenhouse-signature'] ?? ''));
        entry.signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
        if (!entry.signatureValid) return json(401, { error: 'bad signature' });
      }
      return json(200, { received: true });
    }
    case 'ntfy': {
      // ntfy answers a publish with the message it stored (docs.ntfy.sh/publish).
      const topic = entry.path.split('/').filter(Boolean).at(-1);
      return json(200, { id: 'abc123', time: Math.floor(Date.now() / 1000), event: 'message', topic, message: entry.body });
    }
    case 'telegram': {
      if (entry.path !== `/bot${flavour.token}/sendMessage`) return json(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const { chat_id, text } = JSON.parse(entry.body) as { chat_id: string; text: string };
      return json(200, { ok: true, result: { message_id: 1, chat: { id: chat_id }, text } });
    }
  }
}
