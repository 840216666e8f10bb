import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';

export const VAPID_FILE = 'vapid.json';

export interface VapidKeys {
  /** base64url uncompressed P-256 point: the browsers' `applicationServerKey`. */
  publicKey: string;
  privateKey: string;
}

function isVapidKeys(value: unknown): value is VapidKeys {
  const keys = value as Partial<VapidKeys> | null;
  return typeof keys?.publicKey === 'string' && typeof keys.privateKey === 'string' && keys.publicKey.length >= 80 && keys.privateKey.length >= 40;
}

/**
 * The gateway's VAPID key pair (RFC 8292), generated once and kept in the data dir with mode 0600 like
 * the JWT secret: every browser subscription is bound to the public key, so a new pair would silently
 * orphan every phone that subscribed.
 */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const path = join(dataDir, VAPID_FILE);
  if (existsSync(path)) {
    const stored: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (isVapidKeys(stored)) {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
      return { publicKey: stored.publicKey, privateKey: stored.privateKey };
    }
  }
  const keys = generateVapidKeys();
  writeFileSync(path, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return keys;
}

/**
 * A P-256 pair in the form VAPID uses (what `web-push`'s generateVAPIDKeys gives, made with Node's own
 * crypto so the web-push package is loaded only when a push is sent): the public key as an
 * uncompressed point, the private key as its 32-byte scalar, both base64url.
 */
function generateVapidKeys(): VapidKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d! };
}
