import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../server/config/schema.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../server/gateway.ts';
import { rememberDataDir } from './setup-code.ts';

export interface TestGateway extends Gateway {
  dataDir: string;
  /** Stops the gateway and removes its data dir. */
  dispose(): Promise<void>;
}

/**
 * The real gateway, in-process, on a free loopback port with a fresh data dir (real SQLite, real
 * migrations). Demo mode is off unless asked, so the first account a test creates (with the setup code,
 * which registerUser reads from the data dir) is the admin.
 */
export async function startTestGateway(
  overrides: Partial<Config> = {},
  options: Omit<GatewayOptions, 'overrides' | 'env'> = {},
): Promise<TestGateway> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'greenhouse-test-'));
  const gateway = await createGateway({
    env: {},
    overrides: { port: 0, host: '127.0.0.1', demo: false, ...overrides, dataDir },
    webRoot: null,
    ...options,
  });
  await gateway.start();
  rememberDataDir(gateway.url, dataDir);
  return Object.assign(gateway, {
    dataDir,
    async dispose() {
      await gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
