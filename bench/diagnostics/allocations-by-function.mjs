// What a profile written by allocation-sampling.mjs says the gateway allocated: bytes a minute by the
// allocating function (self) and by every function on the stack (inclusive), named through the
// build's source maps (dist/server/*.js.map).
//
//   node bench/diagnostics/allocations-by-function.mjs <profile.heapprofile> [rows]
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const [file, rows = '30'] = process.argv.slice(2);
if (!file) {
  console.error('usage: allocations-by-function.mjs <profile.heapprofile> [rows]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));

const sourceMaps = new Map();
function nameOf(callFrame) {
  let location = `${callFrame.url.split('/').at(-1)}:${callFrame.lineNumber + 1}`;
  if (callFrame.url.startsWith('file://')) {
    if (!sourceMaps.has(callFrame.url)) {
      const path = `${fileURLToPath(callFrame.url)}.map`;
      sourceMaps.set(callFrame.url, existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : null);
    }
    const entry = sourceMaps.get(callFrame.url)?.findEntry(callFrame.lineNumber, callFrame.columnNumber);
    if (entry?.originalSource) location = `${entry.originalSource.split('/').slice(-2).join('/')}:${entry.originalLine + 1}`;
  }
  return `${callFrame.functionName || '(anonymous)'} ${location}`;
}

const self = new Map();
const inclusive = new Map();
let total = 0;
function walk(node, stack) {
  const name = nameOf(node.callFrame);
  const bytes = node.selfSize;
  total += bytes;
  self.set(name, (self.get(name) ?? 0) + bytes);
  const onStack = new Set([...stack, name]);
  for (const frame of onStack) inclusive.set(frame, (inclusive.get(frame) ?? 0) + bytes);
  for (const child of node.children ?? []) walk(child, [...onStack]);
}
walk(profile.head, []);

const minutes = (profile.sampledForMs ?? 60_000) / 60_000;
const kbPerMinute = (bytes) => `${(bytes / 1024 / minutes).toFixed(0).padStart(7)} KB/min`;
console.log(`${(total / 2 ** 20 / minutes).toFixed(2)} MB a minute allocated (sampled) over ${minutes.toFixed(1)} min`);
for (const [title, map] of [['self', self], ['inclusive', inclusive]]) {
  console.log(`--- ${title}`);
  for (const [name, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) console.log(kbPerMinute(bytes), name);
}
