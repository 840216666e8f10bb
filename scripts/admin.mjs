#!/usr/bin/env node
// `npm run admin -- reset-password NAME` (docs/hardware.md, "Locked out"): runs the compiled recovery
// command, dist/server/admin.js, in this process. In a checkout whose server build is missing or older
// than its sources, compiles the server first (esbuild is a development dependency: a release tarball
// ships dist/ already built and never gets here).
// Plain JS so it runs before anything is compiled.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newestMtimeMs, SERVER_SOURCES } from './start.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'server', 'admin.js');
const sources = SERVER_SOURCES.map((path) => join(root, path)).filter((path) => existsSync(path));
if (!existsSync(entry) || (sources.length > 0 && newestMtimeMs(sources) > statSync(entry).mtimeMs)) {
  const { buildServer } = await import('./build-server.mjs');
  await buildServer({ quiet: true });
}
await import(pathToFileURL(entry).href);
