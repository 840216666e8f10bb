// `npm run bench`: runs every benchmark script in turn (never in parallel: they measure the machine).
// Each prints its own side-by-side ratios and exits non-zero when a hard limit is broken.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const scripts = ['sensors-history.ts', 'load.bench.ts'].filter((script) => existsSync(join(here, script)));

let failed = false;
for (const script of scripts) {
  console.log(`\n=== bench/${script}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, script)], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
