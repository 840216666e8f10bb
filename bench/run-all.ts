// `npm run bench`: runs every benchmark script in turn, each in its own process (so one bench's heap
// does not skew another's memory figures). Each prints its own side-by-side ratios. Pass names to run
// a subset: `npx tsx bench/run-all.ts analytics`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const scripts = ['sensors-history.ts', ...readdirSync(here).filter((name) => name.endsWith('.bench.ts')).sort()].filter(
  (name) => wanted.length === 0 || wanted.some((w) => name.startsWith(w)),
);

let failed = false;
for (const script of scripts) {
  console.log(`\n=== bench/${script}`);
  // --expose-gc: memory benches force a collection before they sample.
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, script)], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
