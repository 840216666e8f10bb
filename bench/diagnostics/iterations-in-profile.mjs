// What a .cpuprofile sampled inside each long iteration (or timer gap) of a log written by
// long-iterations.mjs or timer-gaps.mjs: its leaves and its inclusive frames, named through the
// build's source maps (dist/server/*.js.map).
//
//   node bench/diagnostics/iterations-in-profile.mjs <profile.cpuprofile> <log> [only iterations over ms]
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const [profileFile, logFile, overMs = '0'] = process.argv.slice(2);
if (!profileFile || !logFile) {
  console.error('usage: iterations-in-profile.mjs <profile.cpuprofile> <log> [only iterations over ms]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(profileFile, 'utf8'));

const sourceMaps = new Map();
function sourceMapOf(url) {
  if (!url.startsWith('file://')) return null;
  if (!sourceMaps.has(url)) {
    const path = `${fileURLToPath(url)}.map`;
    sourceMaps.set(url, existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : null);
  }
  return sourceMaps.get(url);
}

const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const names = new Map();
function nameOf(id) {
  if (names.has(id)) return names.get(id);
  const frame = nodeById.get(id).callFrame;
  let name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
  const original = sourceMapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (original?.originalSource) {
    name = `${original.name || frame.functionName || '(anonymous)'} ${original.originalSource.split('/').slice(-2).join('/')}:${original.originalLine + 1}`;
  }
  names.set(id, name);
  return name;
}

const sampleTimesUs = [];
let timeUs = profile.startTime;
for (const delta of profile.timeDeltas) sampleTimesUs.push((timeUs += delta));

const top = (counts, n) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, n);
for (const line of readFileSync(logFile, 'utf8').trim().split('\n')) {
  const [startUs, endUs, ms] = line.split(' ').map(Number);
  if (ms < Number(overMs)) continue;
  const leaves = new Map();
  const inclusive = new Map();
  let samples = 0;
  sampleTimesUs.forEach((at, i) => {
    if (at < startUs || at > endUs) return;
    samples++;
    const leaf = nameOf(profile.samples[i]);
    leaves.set(leaf, (leaves.get(leaf) ?? 0) + 1);
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parentOf.get(id)) {
      const name = nameOf(id);
      if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
      seen.add(name);
    }
  });
  console.log(`\n== ${ms} ms (${samples} samples)`);
  console.log(`  leaves: ${top(leaves, 8).map(([name, count]) => `${count} ${name}`).join(' | ')}`);
  for (const [name, count] of top(inclusive, 22)) console.log(`    ${count} ${name}`);
}
