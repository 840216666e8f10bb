// `npx tsx bench/release.bench.ts` (or `npm run bench -- release`): both release tarballs built and
// smoke-tested under qemu-user-static (scripts/release.mjs), with what each step took. Kept out of
// `npm test`: the first run compiles every addon for two processors and fetches the arm roots for
// qemu (about 10 minutes on two cores); with .cache/release warm a run takes about 3 minutes, most of
// it the emulated smoke tests. BENCH_RELEASE_ARCH=arm64|armhf runs one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const archs = process.env.BENCH_RELEASE_ARCH ? [process.env.BENCH_RELEASE_ARCH] : ['arm64', 'armhf'];
// Reuse a build that is there: the bench measures the release step, not Vite.
const build = existsSync(join(root, 'dist', 'server', 'main.js')) && existsSync(join(root, 'web', 'dist', 'index.html')) ? ['--no-build'] : [];

let failed = false;
for (const arch of archs) {
  const startedMs = Date.now();
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'release.mjs'), '--arch', arch, ...build], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const seconds = (Date.now() - startedMs) / 1000;
  const lines = result.stdout.split('\n').filter((line) => line.startsWith('release:'));
  const compiled = lines.filter((line) => / compiled for /.test(line)).length;
  const cached = lines.filter((line) => /: from the cache$/.test(line)).length;
  const smoke = /smoke test ([\d.]+) s/.exec(result.stdout)?.[1];
  const qemuRoot = /qemu root (.*)$/m.exec(result.stdout)?.[1];
  console.log(
    `${arch}: ${result.status === 0 ? 'built and smoke-tested' : 'FAILED'} in ${seconds.toFixed(1)} s; addons compiled ${compiled}, from the cache ${cached}; qemu smoke test ${smoke ?? '-'} s; ${qemuRoot ?? ''}`,
  );
  if (result.status !== 0) {
    console.log(lines.slice(-5).join('\n'));
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
