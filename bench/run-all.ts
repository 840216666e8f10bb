// Runs every bench/*.bench.ts, each in its own process so one bench's heap does not skew another's
// memory figures. `npm run bench` (tsx bench/run-all.ts); pass names to run a subset:
//   npx tsx bench/run-all.ts analytics
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.startsWith(w)))
  .sort();

let failed = 0;
for (const name of benches) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, name)], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.error(`${name} failed with status ${result.status}`);
  }
}
process.exit(failed ? 1 : 0);
