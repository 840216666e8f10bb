// Lighthouse on the sign-in page (the first thing a phone opens), as the unit serves it: the compiled
// gateway (`node dist/server/main.js`) and the built, pre-compressed dashboard. Lighthouse's default
// mobile profile (simulated slow 4G, 4x slower CPU) in Debian's Chromium with the flags of the browser
// tests. Three runs, median score per category, with the figures that make the performance score.
//
//   npx tsx bench/lighthouse.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../scripts/build-server.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../tests/support/chromium-flags.ts';
import { startServerProcess } from '../tests/support/server-process.ts';
import { median } from './figures.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'] as const;

await buildServerIfStale();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
const server = await startServerProcess({ GREENHOUSE_DATA_DIR: dataDir, GREENHOUSE_HARDWARE: 'simulator' }, 60_000, [SERVER_ENTRY]);
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });
try {
  const scores: Record<string, number[]> = {};
  const metrics: Record<string, number[]> = {};
  let scriptBytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const result = await lighthouse(`${server.url}/login`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error('lighthouse gave no result');
    const { lhr } = result;
    for (const category of CATEGORIES) (scores[category] ??= []).push(Math.round((lhr.categories[category]?.score ?? 0) * 100));
    for (const metric of METRICS) (metrics[metric] ??= []).push(lhr.audits[metric]?.numericValue ?? Number.NaN);
    const requests = (lhr.audits['network-requests']?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? [];
    scriptBytes = requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    const failed = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary').map((a) => a.id);
    if (failed.length > 0) console.log(`run ${run + 1}: audits not passed: ${failed.join(', ')}`);
  }
  console.log(`\nLighthouse, sign-in page (${server.url}/login), mobile profile, median of ${RUNS}:`);
  for (const category of CATEGORIES) console.log(`  ${category.padEnd(16)} ${median(scores[category]!)}   (runs: ${scores[category]!.join(', ')})`);
  for (const metric of METRICS) console.log(`  ${metric.padEnd(26)} ${median(metrics[metric]!).toFixed(metric === 'cumulative-layout-shift' ? 3 : 0)}`);
  console.log(`  JavaScript transferred     ${(scriptBytes / 1024).toFixed(1)} KB`);
} finally {
  await chrome.kill();
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
