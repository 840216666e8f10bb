// A push service on the loopback, for Web Push tests (no call leaves the machine): an HTTPS server with
// a certificate from a test CA, recording what the gateway sends (RFC 8030), and a fake browser
// subscription whose keys decrypt it (RFC 8291) and whose VAPID header is checked (RFC 8292).
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { Agent, createServer, type Server } from 'node:https';
import { createCertificateAuthority, issueServerCertificate } from '../../server/https/x509.ts';

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface FakeBrowser {
  /** What `PushSubscription.toJSON()` gives a page. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Decrypts an aes128gcm body sent to this browser. */
  decrypt(body: Buffer): string;
}

export interface PushReceiver {
  origin: string;
  /** An agent trusting the receiver's certificate (the gateway's push sender uses it in tests). */
  agent: Agent;
  received: ReceivedPush[];
  /** The status the next requests to `path` get (default 201, as push services answer). */
  answer(path: string, ...statuses: number[]): void;
  browser(path: string): FakeBrowser;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const nowMs = Date.now();
  const ca = await createCertificateAuthority({ commonName: 'Test push service CA', nowMs });
  const leaf = await issueServerCertificate({ ca, names: ['127.0.0.1'], nowMs });
  const received: ReceivedPush[] = [];
  const scripted = new Map<string, number[]>();
  const server: Server = createServer({ key: leaf.keyPem, cert: leaf.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const status = scripted.get(path)?.shift() ?? 201;
      res.writeHead(status).end(status >= 400 ? 'scripted failure' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const origin = `https://127.0.0.1:${port}`;
  const agent = new Agent({ ca: ca.certPem, keepAlive: false });
  return {
    origin,
    agent,
    received,
    answer(path, ...statuses) {
      scripted.set(path, statuses);
    },
    browser(path) {
      return fakeBrowser(`${origin}${path}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function fakeBrowser(endpoint: string): FakeBrowser {
  const ecdh: ECDH = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
    decrypt: (body) => decryptAes128gcm(body, ecdh, auth),
  };
}

/** RFC 8291 section 3.4 and RFC 8188: what a browser does with a push message body. */
function decryptAes128gcm(body: Buffer, ecdh: ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const sharedSecret = ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  const end = padded.lastIndexOf(2);
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks a VAPID `Authorization: vapid t=<JWT>, k=<key>` header as a push service does: the ES256
 * signature with the key it names, the audience (the endpoint's origin) and an expiry in the future.
 * Answers the JWT's claims and the key.
 */
export function checkVapid(header: string | undefined, audience: string, nowMs: number): { claims: { aud: string; exp: number; sub: string }; publicKey: string } {
  const match = /^vapid t=([^,]+),\s*k=(\S+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [head, payload, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  const valid = verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (claims.aud !== audience) throw new Error(`VAPID audience ${claims.aud}, expected ${audience}`);
  if (claims.exp * 1000 <= nowMs) throw new Error('VAPID token expired');
  return { claims, publicKey: k };
}
