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

// `node --import tsx`, as the systemd unit runs it: one process (tsx's CLI would add a second one
// between us and the gateway).
const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], { cwd: root, stdio: 'inherit' });
// Forward stop signals so outputs reach their safe state before exit (a second signal, e.g. the
// terminal's Ctrl-C reaching the whole process group, is ignored by the gateway while it stops).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
