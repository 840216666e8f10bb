import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSigner } from 'fast-jwt';
import { JWT_SECRET_FILE } from '../../server/auth/jwt-secret.ts';

/**
 * Signs a token with the gateway's own secret (read from its data dir, as an attacker with a copy of
 * the disk would), with whatever claims a test needs: an expired one, a forged role.
 */
export function signWithGatewaySecret(dataDir: string, claims: Record<string, unknown>): string {
  const secret = readFileSync(join(dataDir, JWT_SECRET_FILE), 'utf8').trim();
  return createSigner({ key: secret, algorithm: 'HS256' })(claims);
}
