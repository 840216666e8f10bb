#!/usr/bin/env node
// Pre-compresses the built dashboard (web/dist) once, at build time: a `.br` (Brotli, quality 11) and
// a `.gz` (gzip -9) beside every text asset. The gateway then sends the smaller file as it is, with
// Content-Encoding (server/http/static.ts), instead of compressing on a Pi core per request or sending
// 350 KB of JavaScript raw over a greenhouse's Wi-Fi (docs/performance.md).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Files that compress; images and fonts here are already compressed formats. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/;
/** Below this a compressed copy saves less than its extra header and lookup cost. */
const MIN_BYTES = 256;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Writes `<file>.br` and `<file>.gz` for each compressible file under `root`; returns the byte totals. */
export function compressTree(root) {
  const totals = { files: 0, raw: 0, brotli: 0, gzip: 0 };
  for (const path of files(root)) {
    if (!COMPRESSIBLE.test(path) || statSync(path).size < MIN_BYTES) continue;
    const raw = readFileSync(path);
    const brotli = brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    const gzip = gzipSync(raw, { level: 9 });
    writeFileSync(`${path}.br`, brotli);
    writeFileSync(`${path}.gz`, gzip);
    totals.files++;
    totals.raw += raw.length;
    totals.brotli += brotli.length;
    totals.gzip += gzip.length;
  }
  return totals;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'dist');
  const t = compressTree(root);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`dashboard pre-compressed: ${t.files} files, ${kb(t.raw)} -> brotli ${kb(t.brotli)}, gzip ${kb(t.gzip)}`);
}
