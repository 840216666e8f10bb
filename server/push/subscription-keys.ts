import { createPublicKey } from 'node:crypto';

/**
 * What is wrong with a browser's push keys, or null when a push can be encrypted for them (RFC 8291
 * section 3: `p256dh` is the browser's P-256 public key as an uncompressed point, 65 bytes starting with
 * 0x04; `auth` is a 16-byte secret; both base64url in the subscription's JSON). The encryption would
 * otherwise refuse them at every push (docs/https.md, Web Push).
 */
export function pushKeysProblem(keys: { p256dh: string; auth: string }): { field: string; message: string } | null {
  const point = decodeBase64Url(keys.p256dh);
  if (point === null) return { field: 'keys.p256dh', message: 'keys.p256dh must be base64url' };
  if (point.length !== 65 || point[0] !== 0x04) {
    return { field: 'keys.p256dh', message: `keys.p256dh must be an uncompressed P-256 public key (65 bytes starting with 0x04), not ${point.length} bytes${point.length === 65 ? ` starting with 0x${point[0]!.toString(16).padStart(2, '0')}` : ''}` };
  }
  try {
    // OpenSSL checks that (x, y) lies on the curve when it imports the key.
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  } catch {
    return { field: 'keys.p256dh', message: 'keys.p256dh is not a point on the P-256 curve' };
  }
  const auth = decodeBase64Url(keys.auth);
  if (auth === null) return { field: 'keys.auth', message: 'keys.auth must be base64url' };
  if (auth.length !== 16) return { field: 'keys.auth', message: `keys.auth must be 16 bytes, not ${auth.length}` };
  return null;
}

/** The bytes of base64url text (padding allowed), or null when it is not base64url. */
function decodeBase64Url(text: string): Buffer | null {
  const unpadded = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(unpadded) || unpadded.length % 4 === 1) return null;
  return Buffer.from(unpadded, 'base64url');
}
