import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const INSTALL = join(ROOT, 'scripts', 'install-pi.sh');
const UNINSTALL = join(ROOT, 'scripts', 'uninstall-pi.sh');

type Arch = 'armhf' | 'arm64';
interface FakePi {
  codename: 'bookworm' | 'trixie';
  arch: Arch;
  /** Installed Node.js version; none when absent. */
  node?: string;
  /** apt's candidate for nodejs (apt-cache policy); none when absent. */
  aptNode?: string;
  /** apt's candidates for the pigpio packages. */
  aptPigpio?: Record<string, string>;
  /** pigpio files already on the system (under a fake prefix), and whether ldconfig's cache has the library. */
  pigpioFiles?: Array<'lib/libpigpio.so.1' | 'include/pigpio.h' | 'bin/pigpiod'>;
  pigpioCached?: boolean;
  pigpiodUnit?: boolean;
  /** The gateway's unit is running. */
  active?: boolean;
  model?: string;
}

/**
 * A fake Raspberry Pi for the installer: its os-release and device-tree model, a pigpio prefix, and fake
 * apt-cache, node, dpkg, ldconfig and systemctl first on the PATH (a dry run only queries them).
 */
function fakePi(dir: string, pi: FakePi) {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const script = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  const candidates: Record<string, string | undefined> = { nodejs: pi.aptNode, ...pi.aptPigpio };
  script('apt-cache', [
    '[ "$1" = policy ] || exit 1',
    'case "$2" in',
    ...Object.entries(candidates).filter(([, version]) => version).map(([pkg, version]) => `  ${pkg}) printf '%s:\\n  Installed: (none)\\n  Candidate: %s\\n' "$2" "${version}" ;;`),
    `  *) printf '%s:\\n  Installed: (none)\\n  Candidate: (none)\\n' "$2" ;;`,
    'esac',
  ].join('\n'));
  script('node', pi.node ? `echo ${pi.node}` : 'exit 127');
  script('dpkg', `[ "$1" = --print-architecture ] && echo ${pi.arch}`);
  script('ldconfig', `[ "$1" = -p ] && ${pi.pigpioCached ? `echo '	libpigpio.so.1 (libc6,AArch64) => /usr/local/lib/libpigpio.so.1'` : 'true'}`);
  script('systemctl', [
    'case "$1" in',
    `  is-active) exit ${pi.active ? 0 : 3} ;;`,
    `  list-unit-files) ${pi.pigpiodUnit ? 'echo "pigpiod.service disabled enabled"' : 'exit 1'} ;;`,
    'esac',
  ].join('\n'));
  const prefix = join(dir, 'pigpio-prefix');
  for (const file of pi.pigpioFiles ?? []) {
    mkdirSync(join(prefix, file, '..'), { recursive: true });
    writeFileSync(join(prefix, file), '');
  }
  const osRelease = join(dir, 'os-release');
  const version = pi.codename === 'bookworm' ? '12' : '13';
  writeFileSync(osRelease, `PRETTY_NAME="Raspberry Pi OS GNU/Linux ${version} (${pi.codename})"\nID=debian\nVERSION_ID="${version}"\nVERSION_CODENAME=${pi.codename}\n`);
  const model = join(dir, 'model');
  writeFileSync(model, `${pi.model ?? 'Raspberry Pi 4 Model B Rev 1.4'}\0`);
  const configTxt = join(dir, 'config.txt');
  writeFileSync(configTxt, 'dtparam=audio=on\n');
  // A kernel with sysfs GPIO, unless a test takes it away.
  const gpioSysfs = join(dir, 'gpio');
  mkdirSync(gpioSysfs);
  writeFileSync(join(gpioSysfs, 'export'), '');
  return {
    bin,
    configTxt,
    env: {
      PATH: `${bin}:/usr/bin:/bin`,
      OS_RELEASE: osRelease,
      DEVICE_MODEL: model,
      BOOT_CONFIG_CANDIDATES: `${join(dir, 'firmware-config.txt')} ${configTxt}`,
      PIGPIO_PREFIXES: prefix,
      GPIO_SYSFS: gpioSysfs,
    },
  };
}

/** A release tarball as scripts/release.mjs makes it, with only what the installer itself reads. */
function fakeRelease(dir: string, { version = '0.2.0', arch = 'arm64' as Arch, nodeMajor = 20 } = {}): string {
  const name = `greenhouse-gateway-${version}`;
  const top = join(dir, 'build', `${version}-${arch}`, name);
  mkdirSync(join(top, 'systemd'), { recursive: true });
  mkdirSync(join(top, 'scripts'), { recursive: true });
  writeFileSync(join(top, 'release.json'), `${JSON.stringify({ name: 'greenhouse-gateway', version, arch, nodeMajor, nodeModules: 115 }, null, 2)}\n`);
  for (const unit of ['greenhouse-gateway.service', 'greenhouse-gateway-failure.service']) {
    writeFileSync(join(top, 'systemd', unit), readFileSync(join(ROOT, 'systemd', unit)));
  }
  writeFileSync(join(top, 'scripts', 'config.example.json'), '{}\n');
  const tarball = join(dir, `${name}-linux-${arch}.tar.gz`);
  const tar = spawnSync('tar', ['-czf', tarball, '-C', join(top, '..'), name]);
  expect(tar.status).toBe(0);
  return tarball;
}

function bash(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync('bash', args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

const stepsOf = (out: string) => out.split('\n').filter((line) => line.startsWith('==> ')).map((line) => line.slice(4));
function order(out: string, ...texts: string[]) {
  const at = texts.map((text) => {
    const index = out.indexOf(text);
    expect(index, text).toBeGreaterThanOrEqual(0);
    return index;
  });
  expect(at).toEqual([...at].sort((a, b) => a - b));
}

const RELEASE_STEPS = [
  'Checking the system',
  'The release',
  "Node.js (>= 20.19, major 20: the release's addons are built for it)",
  'Tools',
  'pigpio C library (servo PWM, HC-SR04 timing)',
  'Unpacking the release into /opt/greenhouse-gateway.new (owned by root)',
  "pigpio's Node.js addon (compiled here against the pigpio C library)",
  'Configuration in /etc/greenhouse-gateway/config.json',
  'Enabling I2C (ADS1115)',
  'Hardware watchdog (RuntimeWatchdogSec)',
  'Stopping the running gateway and switching /opt/greenhouse-gateway to the new version',
  'Installing and starting the systemd unit',
  'Health check',
];

describe('scripts/install-pi.sh and uninstall-pi.sh', () => {
  let dir = '';
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
  const fresh = () => (dir = mkdtempSync(join(tmpdir(), 'install-')));

  it('are valid bash', () => {
    expect(bash(['-n', INSTALL]).status).toBe(0);
    expect(bash(['-n', UNINSTALL]).status).toBe(0);
  });

  describe.each([
    { codename: 'trixie', arch: 'arm64', aptNode: '20.19.2+dfsg-1', node: 'Debian' },
    { codename: 'trixie', arch: 'armhf', aptNode: '20.19.2+dfsg-1', node: 'Debian' },
    { codename: 'bookworm', arch: 'arm64', aptNode: '18.19.0+dfsg-6~deb12u2', node: 'NodeSource' },
    { codename: 'bookworm', arch: 'armhf', aptNode: '18.19.0+dfsg-6~deb12u2', node: 'NodeSource' },
  ] as const)('a release on $codename, $arch', ({ codename, arch, aptNode, node }) => {
    it('install --dry-run: every step in order, Node.js 20 from the right place, nothing built but pigpio, nothing changed', () => {
      fresh();
      const pi = fakePi(dir, { codename, arch, aptNode });
      const tarball = fakeRelease(dir, { arch });
      const { status, out, err } = bash([INSTALL, '--dry-run', tarball], pi.env);
      expect(status, err).toBe(0);
      expect(stepsOf(out)).toEqual(RELEASE_STEPS);
      expect(out).toContain(`release 0.2.0 for ${arch}, native addons for Node.js 20`);
      if (node === 'Debian') {
        expect(out).toContain("installing Node.js 20.19.2 from Debian's apt (nodejs, npm)");
        expect(out).not.toContain('nodesource');
      } else {
        expect(out).toContain("apt offers Node.js 18.19.0 (not >= 20.19, major 20: the release's addons are built for it): installing Node.js 20.x");
        expect(out).toContain("would run: echo 'deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_20.x nodistro main' > /etc/apt/sources.list.d/nodesource.list");
      }
      expect(out).toContain(`would run: tar -xzf ${tarball} -C /opt/greenhouse-gateway.new --strip-components=1 --no-same-owner`);
      expect(out).not.toContain('npm ci');
      expect(out).not.toContain('npm run build');
      // trixie has no pigpio packages, bookworm's lack pigpiod: the C library is built, setuptools first.
      expect(out).toContain('building release 79 from source');
      expect(out).toMatch(/apt-get install -y --no-install-recommends (build-essential )?(curl )?python3 python3-setuptools\n/);
      order(out, 'would run: make -C /usr/local/src/pigpio-79 install', 'would run: ldconfig', 'npm rebuild pigpio --nodedir=/usr');
      expect(out).toContain('would run: mv /opt/greenhouse-gateway.new /opt/greenhouse-gateway');
      expect(out).toContain('would run: systemctl enable greenhouse-gateway.service');
      expect(out).toContain('would wait up to 120 s for http://127.0.0.1:8080/api/health');
      expect(readFileSync(pi.configTxt, 'utf8')).toBe('dtparam=audio=on\n');
    });

    it('upgrade --dry-run: unpacked while the old one runs, then stopped, database copied, previous kept, restarted, health-checked', () => {
      fresh();
      const pi = fakePi(dir, { codename, arch, node: '20.19.2', active: true, pigpioFiles: ['lib/libpigpio.so.1', 'include/pigpio.h', 'bin/pigpiod'], pigpioCached: true });
      // The running version's tree and database exist: INSTALL_ROOT puts every path under the test dir.
      const root = join(dir, 'root');
      mkdirSync(join(root, 'opt', 'greenhouse-gateway'), { recursive: true });
      mkdirSync(join(root, 'var', 'lib', 'greenhouse-gateway'), { recursive: true });
      writeFileSync(join(root, 'var', 'lib', 'greenhouse-gateway', 'greenhouse.db'), '');
      const { status, out, err } = bash([INSTALL, '--dry-run', fakeRelease(dir, { arch })], { ...pi.env, INSTALL_ROOT: root });
      expect(status, err).toBe(0);
      expect(out).toContain('Node.js 20.19.2 is installed: kept');
      expect(out).toContain('pigpio C library (servo PWM, HC-SR04 timing)\n    already installed');
      const db = `${root}/var/lib/greenhouse-gateway/greenhouse.db`;
      order(
        out,
        `would run: tar -xzf`,
        'would run: systemctl stop greenhouse-gateway.service',
        `would run: cp -p ${db} ${db}.before-upgrade`,
        `would run: mv ${root}/opt/greenhouse-gateway ${root}/opt/greenhouse-gateway.previous`,
        `would run: mv ${root}/opt/greenhouse-gateway.new ${root}/opt/greenhouse-gateway`,
        'would run: systemctl restart greenhouse-gateway.service',
        `would stop it, move ${root}/opt/greenhouse-gateway to ${root}/opt/greenhouse-gateway.failed, put ${root}/opt/greenhouse-gateway.previous back`,
      );
      expect(out).not.toContain(`rm -rf ${root}/opt/greenhouse-gateway\n`);
    });

    it('--rollback --dry-run: the previous version swapped back in with the service stopped', () => {
      fresh();
      const pi = fakePi(dir, { codename, arch, node: '20.19.2', active: true });
      const root = join(dir, 'root');
      mkdirSync(join(root, 'opt', 'greenhouse-gateway.previous'), { recursive: true });
      const { status, out, err } = bash([INSTALL, '--dry-run', '--rollback'], { ...pi.env, INSTALL_ROOT: root });
      expect(status, err).toBe(0);
      const app = `${root}/opt/greenhouse-gateway`;
      order(
        out,
        'would run: systemctl stop greenhouse-gateway.service',
        `would run: mv ${app} ${app}.rolled-back`,
        `would run: mv ${app}.previous ${app}`,
        `would run: mv ${app}.rolled-back ${app}.previous`,
        'would run: systemctl start greenhouse-gateway.service',
      );
      rmSync(join(root, 'opt', 'greenhouse-gateway.previous'), { recursive: true });
      const none = bash([INSTALL, '--dry-run', '--rollback'], { ...pi.env, INSTALL_ROOT: root });
      expect(none.status).toBe(1);
      expect(none.err).toContain('there is no previous version');
    });
  });

  it('refuses a release for the other architecture, naming both', () => {
    fresh();
    const pi = fakePi(dir, { codename: 'trixie', arch: 'armhf', aptNode: '20.19.2+dfsg-1' });
    const { status, err } = bash([INSTALL, '--dry-run', fakeRelease(dir, { arch: 'arm64' })], pi.env);
    expect(status).toBe(1);
    expect(err).toContain('this release is for arm64 but this system is armhf');
  });

  it('replaces a Node.js of another major than the release was built for', () => {
    fresh();
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '22.12.0', aptNode: '20.19.2+dfsg-1' });
    const { status, out } = bash([INSTALL, '--dry-run', fakeRelease(dir)], pi.env);
    expect(status).toBe(0);
    expect(out).toContain('Node.js 22.12.0 is installed but does not fit: replacing it');
    expect(out).toContain('apt-get install -y --no-install-recommends --allow-downgrades nodejs npm');
  });

  it('a kernel without sysfs GPIO gets Debian\'s gpiod (gpioset, for the relays-off step); one with it does not', () => {
    fresh();
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '20.19.2' });
    const tarball = fakeRelease(dir);
    const tools = (out: string) => out.split('==> Tools\n')[1]!.split('==>')[0]!;
    expect(tools(bash([INSTALL, '--dry-run', tarball], pi.env).out)).not.toContain('gpiod');
    expect(tools(bash([INSTALL, '--dry-run', tarball], { ...pi.env, GPIO_SYSFS: join(dir, 'none') }).out)).toMatch(/apt-get install -y --no-install-recommends .*gpiod\n/);
  });

  it('a URL is downloaded into /var/cache first', () => {
    fresh();
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '20.19.2' });
    const url = 'https://example.org/releases/greenhouse-gateway-0.3.0-linux-arm64.tar.gz';
    const { status, out } = bash([INSTALL, '--dry-run', url], pi.env);
    expect(status).toBe(0);
    expect(out).toContain(`would run: curl -fL --retry 3 -o /var/cache/greenhouse-gateway/greenhouse-gateway-0.3.0-linux-arm64.tar.gz ${url}`);
    expect(out).toContain('release 0.3.0 (its release.json is read once downloaded)');
  });

  it('without a release, from a checkout: says how to get one; --from-source builds here', () => {
    fresh();
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', aptNode: '20.19.2+dfsg-1' });
    const none = bash([INSTALL, '--dry-run'], pi.env);
    expect(none.status).toBe(1);
    expect(none.err).toContain('npm run release on a PC makes it');
    const { status, out, err } = bash([INSTALL, '--dry-run', '--from-source'], pi.env);
    expect(status).toBe(0);
    expect(out).toContain('would run: env -C /opt/greenhouse-gateway.new npm ci');
    expect(out).toContain('would run: env -C /opt/greenhouse-gateway.new npm run build');
    expect(err).toContain('building on the Pi: needs about 1 GB of memory');
  });

  describe('pigpio', () => {
    it('a half-installed pigpio (make install stopped before ldconfig) is mended with ldconfig, not rebuilt', () => {
      fresh();
      const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '20.19.2', pigpioFiles: ['lib/libpigpio.so.1', 'include/pigpio.h', 'bin/pigpiod'], pigpioCached: false });
      const { status, out } = bash([INSTALL, '--dry-run', fakeRelease(dir)], pi.env);
      expect(status).toBe(0);
      expect(out).toContain('half-installed pigpio found (the library is not in the linker cache: its make install stopped before ldconfig): mending');
      expect(out).toContain('would run: ldconfig');
      expect(out).not.toContain('from source');
    });

    it('a pigpio missing pieces is built again; apt with library and pigpiod is used as it is', () => {
      fresh();
      let pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '20.19.2', pigpioFiles: ['lib/libpigpio.so.1'] });
      let run = bash([INSTALL, '--dry-run', fakeRelease(dir)], pi.env);
      expect(run.out).toContain('half-installed pigpio found (library 1, header 0, pigpiod 0): building it again');
      expect(run.out).toContain('building release 79 from source');
      rmSync(dir, { recursive: true });
      fresh();
      pi = fakePi(dir, { codename: 'bookworm', arch: 'arm64', node: '20.19.2', aptPigpio: { 'libpigpio-dev': '1.79-1', pigpiod: '1.79-1' }, pigpiodUnit: true });
      run = bash([INSTALL, '--dry-run', fakeRelease(dir)], pi.env);
      expect(run.out).toContain('apt-get install -y --no-install-recommends libpigpio-dev pigpiod');
      expect(run.out).not.toContain('from source');
      expect(run.out).toContain('would run: systemctl disable --now pigpiod.service');
    });

    it('on a Pi 5: no pigpio, no addon build, and it says what is unavailable', () => {
      fresh();
      const pi = fakePi(dir, { codename: 'bookworm', arch: 'arm64', node: '20.19.0', model: 'Raspberry Pi 5 Model B Rev 1.0' });
      const { status, out } = bash([INSTALL, '--dry-run', fakeRelease(dir)], pi.env);
      expect(status).toBe(0);
      expect(out).toContain('not on a Pi 5 (pigpio cannot drive it): servo and water level unavailable');
      expect(out).toContain("pigpio's Node.js addon (compiled here against the pigpio C library)\n    skipped: no pigpio C library");
      expect(out).toContain('Installed without pigpio: the servo (roof window) and the HC-SR04 (water level) are unavailable.');
    });
  });

  it('offers the hardware watchdog with a note; --watchdog writes the systemd drop-in', () => {
    fresh();
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '20.19.2' });
    const tarball = fakeRelease(dir);
    const asked = bash([INSTALL, '--dry-run', tarball], pi.env);
    expect(asked.out).toContain('the Pi reboots by itself within 15 s and the gateway starts with every output off');
    expect(asked.out).toContain('not enabled (re-run with --watchdog to enable it)');
    const enabled = bash([INSTALL, '--dry-run', '--watchdog', tarball], pi.env);
    expect(enabled.out).toContain("would run: printf '[Manager]\\nRuntimeWatchdogSec=15s\\nRebootWatchdogSec=2min\\n' > /etc/systemd/system.conf.d/60-greenhouse-gateway-watchdog.conf");
    expect(enabled.out).toContain('would run: systemctl daemon-reexec');
  });

  it('for real, under a temporary root: install, upgrade, and an upgrade that never becomes healthy rolled back with its database', () => {
    fresh();
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '20.19.2', pigpioFiles: ['lib/libpigpio.so.1', 'include/pigpio.h', 'bin/pigpiod'], pigpioCached: true });
    const root = join(dir, 'root');
    const app = join(root, 'opt', 'greenhouse-gateway');
    const dataDir = join(root, 'var', 'lib', 'greenhouse-gateway');
    const calls = join(dir, 'systemctl.log');
    // systemctl remembers whether the unit runs; curl answers /api/health as the installed version would:
    // healthy unless its release.json says it is the broken one. npm (pigpio's addon) succeeds.
    const script = (name: string, body: string) => {
      writeFileSync(join(pi.bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(pi.bin, name), 0o755);
    };
    script('systemctl', `echo "$*" >> ${calls}\ncase "$1" in\n  is-active) [ -f ${dir}/active ] ;;\n  start|restart) touch ${dir}/active ;;\n  stop) rm -f ${dir}/active ;;\n  list-unit-files) exit 1 ;;\nesac`);
    script('curl', `[ -f ${dir}/active ] || exit 7\ngrep -q '"version": "9.9.9-broken"' ${app}/release.json && exit 22\necho '{"success":true,"data":{"status":"ok","database":{"ok":true}}}'`);
    script('npm', 'exit 0');
    // Nothing reaches the real apt: the tools it would add are recorded only.
    script('apt-get', `echo "apt-get $*" >> ${calls}`);
    const env = { ...pi.env, INSTALL_ROOT: root, HEALTH_TIMEOUT_S: '2' };

    const first = bash([INSTALL, '--no-watchdog', fakeRelease(dir, { version: '0.2.0' })], env);
    expect(first.status, first.out + first.err).toBe(0);
    expect(first.out).toContain('The greenhouse dashboard is up.');
    expect(readFileSync(join(app, 'release.json'), 'utf8')).toContain('"version": "0.2.0"');
    expect(existsSync(join(root, 'etc', 'systemd', 'system', 'greenhouse-gateway.service'))).toBe(true);
    // The OnFailure= unit the gateway's unit names is installed beside it.
    expect(existsSync(join(root, 'etc', 'systemd', 'system', 'greenhouse-gateway-failure.service'))).toBe(true);
    expect(existsSync(join(root, 'etc', 'greenhouse-gateway', 'config.json'))).toBe(true);

    // The gateway ran and wrote its database; then an upgrade to a healthy 0.3.0.
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'greenhouse.db'), 'written by 0.2.0');
    const second = bash([INSTALL, '--no-watchdog', fakeRelease(dir, { version: '0.3.0' })], env);
    expect(second.status, second.out + second.err).toBe(0);
    expect(readFileSync(join(app, 'release.json'), 'utf8')).toContain('"version": "0.3.0"');
    expect(readFileSync(join(app + '.previous', 'release.json'), 'utf8')).toContain('"version": "0.2.0"');
    writeFileSync(join(dataDir, 'greenhouse.db'), 'migrated by 0.3.0');

    // By hand: --rollback swaps 0.2.0 back in (the database stays), and again rolls forward.
    const back = bash([INSTALL, '--rollback'], env);
    expect(back.status, back.out + back.err).toBe(0);
    expect(readFileSync(join(app, 'release.json'), 'utf8')).toContain('"version": "0.2.0"');
    expect(readFileSync(join(app + '.previous', 'release.json'), 'utf8')).toContain('"version": "0.3.0"');
    expect(readFileSync(join(dataDir, 'greenhouse.db'), 'utf8')).toBe('migrated by 0.3.0');
    expect(bash([INSTALL, '--rollback'], env).status).toBe(0);
    expect(readFileSync(join(app, 'release.json'), 'utf8')).toContain('"version": "0.3.0"');

    // A broken release: it never answers, so it is rolled back to 0.3.0 with 0.3.0's database.
    const broken = bash([INSTALL, '--no-watchdog', fakeRelease(dir, { version: '9.9.9-broken' })], env);
    expect(broken.status, broken.out + broken.err).toBe(2);
    expect(broken.err).toContain('the new version did not become healthy within 2 s');
    expect(broken.out).toContain('Rolled back: the previous version runs again, with the database as it left it.');
    expect(readFileSync(join(app, 'release.json'), 'utf8')).toContain('"version": "0.3.0"');
    expect(readFileSync(join(app + '.failed', 'release.json'), 'utf8')).toContain('9.9.9-broken');
    expect(readFileSync(join(dataDir, 'greenhouse.db'), 'utf8')).toBe('migrated by 0.3.0');
    expect(existsSync(join(dir, 'active'))).toBe(true);
    // Every switch happened with the service stopped.
    const log = readFileSync(calls, 'utf8');
    expect(log.match(/^stop greenhouse-gateway.service$/gm)).toHaveLength(5);
  });

  it('refuses an unknown option with a message naming it', () => {
    const { status, err } = bash([INSTALL, '--frobnicate']);
    expect(status).toBe(64);
    expect(err).toContain('unknown option: --frobnicate');
  });

  it('uninstall --dry-run keeps data and config unless --purge', () => {
    const keep = bash([UNINSTALL, '--dry-run']);
    expect(keep.status).toBe(0);
    expect(keep.out).toContain('would run: rm -rf /opt/greenhouse-gateway');
    expect(keep.out).not.toContain('/var/lib/greenhouse-gateway /etc');
    const purge = bash([UNINSTALL, '--dry-run', '--purge']);
    expect(purge.out).toContain('would run: rm -rf /var/lib/greenhouse-gateway /etc/greenhouse-gateway');
  });
});
