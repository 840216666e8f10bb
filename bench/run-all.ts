/**
 * `npm run bench`: every benchmark, one after the other (they measure the machine, so never in
 * parallel). Each lives in its own file and can also run alone with `npx tsx bench/<name>.bench.ts`.
 */
import { runLoadBench } from './load.bench.ts';

const benches: Array<[name: string, run: () => Promise<Record<string, string | number>>]> = [['appliance under load', runLoadBench]];

let failed = false;
for (const [name, run] of benches) {
  console.log(`\n## ${name}`);
  const figures = await run();
  console.table(figures);
  if (figures['missed samples (must be 0)'] !== undefined && figures['missed samples (must be 0)'] !== 0) failed = true;
}
if (failed) process.exitCode = 1;
