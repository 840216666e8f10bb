#!/usr/bin/env node
// `npm start`: builds the dashboard when no build exists yet, then runs the gateway (simulator mode
// unless GREENHOUSE_HARDWARE says otherwise). Plain JS so it runs before anything is compiled.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(join(root, 'web', 'dist', 'index.html'))) {
  console.log('No dashboard build found: running `npm run build` first.');
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const server = spawn(process.execPath, [tsx, join(root, 'server', 'main.ts')], { cwd: root, stdio: 'inherit' });
// Forward stop signals so outputs reach their safe state before exit.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
