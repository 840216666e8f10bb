import { chmodSync, mkdirSync } from 'node:fs';

/**
 * Creates the data dir if needed and makes it the gateway user's alone (0700), whatever the umask or
 * an earlier release left: it holds the database with every account's hash, the JWT secret and the
 * first run's setup code (docs/hardware.md, "The data directory").
 */
export function ensurePrivateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}
