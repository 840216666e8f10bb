#!/usr/bin/env node
// npm run release: the appliance as tarballs for the Pi, one per architecture, built on this x86 machine
// (docs/hardware.md, "Releases"):
//   release/greenhouse-gateway-<version>-linux-arm64.tar.gz   64-bit Raspberry Pi OS
//   release/greenhouse-gateway-<version>-linux-armhf.tar.gz   32-bit Raspberry Pi OS
// Each holds dist/ (the compiled server), web/dist (the built dashboard), package.json and the
// production node_modules, whose native addons are cross-compiled with Debian's g++ for the Pi against
// this Node.js's own headers (--nodedir: nothing downloaded), then smoke-tested under qemu-user-static
// with Debian's arm Node.js: the addon loads, a database opens, the gateway answers /api/health in
// simulator mode. A Pi then installs without Vite or a compiler (scripts/install-pi.sh).
//
//   npm run release                        both architectures
//   npm run release -- --arch arm64        one
//   npm run release -- --no-build          reuse dist/ and web/dist as they are
//
// Slow parts are cached under .cache/release (GREENHOUSE_RELEASE_CACHE): compiled addons by package,
// version, architecture and Node ABI; the arm Debian roots for qemu.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { elfMachineOfFile, TARGETS } from './release/elf.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = process.env.GREENHOUSE_RELEASE_CACHE ?? join(ROOT, '.cache', 'release');
const OUT = process.env.GREENHOUSE_RELEASE_DIR ?? join(ROOT, 'release');
// npm's own node-gyp: the one `npm ci` would use, no download.
const NODE_GYP = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
// The installed Node.js's headers (/usr/include/node): the addons' ABI is this Node's (NODE_MODULE_VERSION).
const NODE_DIR = join(dirname(process.execPath), '..');
// What a release carries besides dist/, web/dist and node_modules.
const PAYLOAD = ['package.json', 'package-lock.json', 'README.md', 'systemd', 'docs/hardware.md', 'scripts/install-pi.sh', 'scripts/uninstall-pi.sh', 'scripts/relays-off.mjs', 'scripts/relays-off-gpiod.mjs', 'scripts/config.example.json'];

function parseArgs(argv) {
  const options = { archs: Object.keys(TARGETS), build: true, smoke: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--arch') {
      const arch = argv[++i];
      if (!TARGETS[arch]) fail(`--arch must be one of ${Object.keys(TARGETS).join(', ')}, got '${arch}'`);
      options.archs = [arch];
    } else if (arg === '--no-build') options.build = false;
    else if (arg === '--no-smoke') options.smoke = false;
    else fail(`unknown option: ${arg}`);
  }
  return options;
}

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
  return result;
}

const log = (message) => console.log(`release: ${message}`);
const seconds = (startMs) => `${((Date.now() - startMs) / 1000).toFixed(1)} s`;

/** Every folder under node_modules with a binding.gyp (a native addon), nested ones included. */
export function addonDirs(nodeModules) {
  const found = [];
  const visit = (dir, depth) => {
    if (!existsSync(dir) || depth > 4) return;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (!statSync(path).isDirectory()) continue;
      if (entry.startsWith('@')) {
        visit(path, depth);
        continue;
      }
      if (existsSync(join(path, 'binding.gyp'))) found.push(path);
      visit(join(path, 'node_modules'), depth + 1);
    }
  };
  visit(nodeModules, 0);
  return found;
}

/** Builds one addon for the target with Debian's cross g++, or takes it from the cache. */
function crossCompile(dir, arch) {
  const target = TARGETS[arch];
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const key = `${pkg.name.replace('/', '+')}@${pkg.version}-${arch}-abi${process.versions.modules}`;
  const cached = join(CACHE, 'addons', key);
  const release = join(dir, 'build', 'Release');
  if (!existsSync(join(cached, '.complete'))) {
    const started = Date.now();
    const tools = { CC: `${target.triplet}-gcc`, CXX: `${target.triplet}-g++`, LINK: `${target.triplet}-g++`, AR: `${target.triplet}-ar` };
    run(process.execPath, [NODE_GYP, 'rebuild', '--release', '--loglevel=warn', `--arch=${target.gypArch}`, `--nodedir=${NODE_DIR}`, '--jobs=2'], {
      cwd: dir,
      env: { ...process.env, ...tools, npm_config_nodedir: NODE_DIR },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    rmSync(cached, { recursive: true, force: true });
    mkdirSync(cached, { recursive: true });
    for (const file of existsSync(release) ? readdirSync(release) : []) {
      if (file.endsWith('.node')) cpSync(join(release, file), join(cached, file));
    }
    writeFileSync(join(cached, '.complete'), '');
    log(`  ${pkg.name} ${pkg.version} compiled for ${arch} in ${seconds(started)}`);
  } else {
    log(`  ${pkg.name} ${pkg.version} for ${arch}: from the cache`);
  }
  // Only the addon itself ships: the objects and the sources stay here.
  rmSync(join(dir, 'build'), { recursive: true, force: true });
  mkdirSync(release, { recursive: true });
  for (const file of readdirSync(cached)) if (file.endsWith('.node')) cpSync(join(cached, file), join(release, file));
}

/** Every .node file of the tree must be for the target processor: an x86 addon would fail on the Pi. */
function checkMachines(stage, arch) {
  const target = TARGETS[arch];
  const wrong = [];
  let count = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.node')) {
        count++;
        const { machine, bits } = elfMachineOfFile(path);
        if (machine !== target.machine || bits !== target.bits) wrong.push(`${relative(stage, path)}: ${machine} ${bits}-bit`);
      }
    }
  };
  visit(join(stage, 'node_modules'));
  if (wrong.length > 0) throw new Error(`addons not built for ${target.machine}:\n  ${wrong.join('\n  ')}`);
  return count;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Under qemu-user-static with Debian's arm Node.js: better-sqlite3 loads and writes a database, then
 * the compiled gateway starts in simulator mode, answers /api/health and stops cleanly on SIGTERM.
 */
async function smokeTest(stage, arch) {
  const target = TARGETS[arch];
  const started = Date.now();
  const sysroot = spawnSync('bash', [join(ROOT, 'scripts', 'release', 'arm-sysroot.sh'), arch, CACHE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (sysroot.status !== 0) throw new Error(`could not make the ${arch} Debian root for qemu`);
  const root = sysroot.stdout.trim().split('\n').at(-1);
  log(`  ${arch}: qemu root ${readFileSync(join(root, '.complete'), 'utf8').trim()}`);
  const node = [target.qemu, '-L', root, join(root, 'usr', 'bin', 'node')];
  const scratch = mkdtempSync(join(tmpdir(), `release-smoke-${arch}-`));
  try {
    const probe = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(join(scratch, 'probe.db'))});
      db.pragma('journal_mode = WAL'); db.exec('CREATE TABLE t (v)'); db.prepare('INSERT INTO t VALUES (?)').run(42);
      console.log(JSON.stringify({ arch: process.arch, node: process.version, value: db.prepare('SELECT v FROM t').pluck().get() }));`;
    const result = spawnSync(node[0], [...node.slice(1), '-e', probe], { cwd: stage, encoding: 'utf8' });
    const answer = result.status === 0 ? JSON.parse(result.stdout.trim()) : null;
    if (!answer || answer.value !== 42) throw new Error(`better-sqlite3 did not work under ${target.qemu}:\n${result.stdout}${result.stderr}`);
    log(`  ${arch}: better-sqlite3 loads in ${answer.node} (${answer.arch}) and writes a database`);

    const port = await freePort();
    const child = spawn(node[0], [...node.slice(1), 'dist/server/main.js'], {
      cwd: stage,
      env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', GREENHOUSE_DATA_DIR: join(scratch, 'data'), GREENHOUSE_HARDWARE: 'simulator', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    let health = null;
    // Emulated, a cold start takes tens of seconds on this machine.
    const deadline = Date.now() + 180_000;
    while (!health && child.exitCode === null && Date.now() < deadline) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) health = (await res.json()).data;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    child.kill('SIGTERM');
    const exit = await exited;
    if (!health) throw new Error(`the ${arch} gateway did not answer /api/health under qemu:\n${output}`);
    // Unsigned, health answers only status and database.ok: what the installer's check reads too.
    if (health.database?.ok !== true) throw new Error(`the ${arch} gateway's database is not ok: ${JSON.stringify(health)}`);
    if (exit.code !== 0) throw new Error(`the ${arch} gateway did not stop cleanly on SIGTERM (${JSON.stringify(exit)}):\n${output}`);
    log(`  ${arch}: the gateway answered /api/health (${health.status}, database ok) in simulator mode and stopped cleanly; smoke test ${seconds(started)}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function buildRelease(arch, version, options) {
  const target = TARGETS[arch];
  const name = `greenhouse-gateway-${version}`;
  const started = Date.now();
  log(`${arch} (${target.machine}):`);
  const stageParent = join(CACHE, 'stage', arch);
  const stage = join(stageParent, name);
  rmSync(stageParent, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  cpSync(join(ROOT, 'dist'), join(stage, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'web', 'dist'), join(stage, 'web', 'dist'), { recursive: true });
  for (const path of PAYLOAD) cpSync(join(ROOT, path), join(stage, path), { recursive: true });
  // What the installer checks before it installs: the architecture, and the Node.js major whose ABI the
  // addons are built for (scripts/install-pi.sh reads one "key": value a line).
  const about = { name: 'greenhouse-gateway', version, arch, nodeMajor: Number(process.versions.node.split('.')[0]), nodeModules: Number(process.versions.modules) };
  writeFileSync(join(stage, 'release.json'), `${JSON.stringify(about, null, 2)}\n`);
  // The Pi's packages (prebuilt optional ones like @node-rs/argon2's for arm) without install scripts:
  // the addons are compiled below for the Pi, not for this machine.
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--os=linux', `--cpu=${target.npmCpu}`, '--libc=glibc', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: stage });
  for (const dir of addonDirs(join(stage, 'node_modules'))) crossCompile(dir, arch);
  const addons = checkMachines(stage, arch);
  log(`  ${addons} native addons, all ${target.machine}`);
  if (options.smoke) await smokeTest(stage, arch);
  mkdirSync(OUT, { recursive: true });
  const tarball = join(OUT, `${name}-linux-${arch}.tar.gz`);
  run('tar', ['-czf', tarball, '--owner=0', '--group=0', '-C', stageParent, name]);
  const sha256 = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  writeFileSync(`${tarball}.sha256`, `${sha256}  ${name}-linux-${arch}.tar.gz\n`);
  log(`  ${relative(ROOT, tarball)}: ${(statSync(tarball).size / 1e6).toFixed(1)} MB, ${seconds(started)}`);
  return tarball;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  for (const arch of options.archs) {
    const { triplet, qemu } = TARGETS[arch];
    for (const tool of [`${triplet}-g++`, ...(options.smoke ? [qemu] : [])]) {
      if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
        fail(`${tool} is missing: apt-get install g++-${triplet} qemu-user-static (docs/hardware.md, Releases)`);
      }
    }
  }
  if (options.build) run('npm', ['run', 'build'], { cwd: ROOT });
  // The routes' schema code (server/http/precompiled-schemas.ts): without it the Pi would compile each schema on its event loop.
  for (const needed of ['dist/server/main.js', 'dist/server/admin.js', 'dist/server/schemas/index.cjs', 'web/dist/index.html']) {
    if (!existsSync(join(ROOT, needed))) fail(`${needed} is missing: run npm run build (or drop --no-build)`);
  }
  for (const arch of options.archs) await buildRelease(arch, version, options);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => fail(err.message));
}
