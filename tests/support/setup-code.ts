import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETUP_CODE_FILE } from '../../server/auth/setup-code.ts';

/** Data dirs of the gateways this test process started, by base url. */
const dataDirs = new Map<string, string>();

/** Notes where the gateway at `url` keeps its data, so helpers can read its setup code as its owner would. */
export function rememberDataDir(url: string, dataDir: string): void {
  dataDirs.set(url.replace(/\/$/, ''), dataDir);
}

/** The first-run setup code of the gateway at `url` (read from its data dir), or undefined when it has none. */
export function setupCodeOf(url: string): string | undefined {
  const dataDir = dataDirs.get(url.replace(/\/$/, ''));
  if (!dataDir) return undefined;
  const path = join(dataDir, SETUP_CODE_FILE);
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined;
}
