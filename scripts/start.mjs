#!/usr/bin/env node
// `npm start`: runs the compiled gateway (dist/server/main.js) with plain Node.js, in this very process
// (no wrapper between the terminal or systemd and the gateway, so signals reach it directly). Builds
// first (`npm run build`: dashboard and server) when a build is missing or older than its sources.
// Plain JS so it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Newest modification time (ms) of the files under `paths` (0 when none exists). */
export function newestMtimeMs(paths) {
  let newest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs([join(path, entry)]));
    } else newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** What dist/server/main.js is built from: a newer file here makes it stale. */
export const SERVER_SOURCES = ['server', 'drivers', 'common', 'package.json', 'scripts/build-server.mjs'];

/** Why a build is needed (missing or stale output), or null when the outputs are current. */
export function buildReason(dir = root) {
  const outputs = [
    { output: join(dir, 'dist', 'server', 'main.js'), sources: SERVER_SOURCES },
    { output: join(dir, 'web', 'dist', 'index.html'), sources: ['web/src', 'common', 'web/index.html', 'web/public', 'vite.config.ts'] },
  ];
  for (const { output, sources } of outputs) {
    if (!existsSync(output)) return `no ${output.slice(dir.length + 1)}`;
    if (newestMtimeMs(sources.map((source) => join(dir, source))) > statSync(output).mtimeMs) {
      return `${output.slice(dir.length + 1)} is older than its sources`;
    }
  }
  return null;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const reason = buildReason();
  if (reason) {
    console.log(`${reason}: running \`npm run build\` first.`);
    const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  await import(pathToFileURL(join(root, 'dist', 'server', 'main.js')).href);
}
