import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const JWT_SECRET_FILE = 'jwt-secret';

/**
 * The signing secret has no built-in default: it is generated on first start and kept in the data dir,
 * readable by the gateway's user only (mode 0600), so tokens survive restarts.
 */
export function loadOrCreateJwtSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, JWT_SECRET_FILE);
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim();
    if (secret.length >= 32) {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
      return secret;
    }
  }
  const secret = randomBytes(48).toString('base64url');
  // 'wx' would fail if another process raced us; we are the only writer, so overwrite a short secret.
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return secret;
}
