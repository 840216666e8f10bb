import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const INSTALL = join(ROOT, 'scripts', 'install-pi.sh');
const UNINSTALL = join(ROOT, 'scripts', 'uninstall-pi.sh');

interface FakePi {
  codename: 'bookworm' | 'trixie';
  arch: 'armhf' | 'arm64';
  /** Installed Node.js version; none when absent. */
  node?: string;
  /** apt's candidate for nodejs (apt-cache policy); none when absent. */
  aptNode?: string;
  /** apt's candidates for the pigpio packages. */
  aptPigpio?: Record<string, string>;
  pigpiodUnit?: boolean;
  /** The gateway's unit is running. */
  active?: boolean;
  model?: string;
}

/**
 * A fake Raspberry Pi for the installer's dry run: its os-release and device-tree model, and fake
 * apt-cache, node, dpkg and systemctl first on the PATH (the script only queries them in a dry run).
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
  script('systemctl', [
    'case "$1" in',
    `  is-active) exit ${pi.active ? 0 : 3} ;;`,
    `  list-unit-files) ${pi.pigpiodUnit ? 'echo "pigpiod.service disabled enabled"' : 'exit 1'} ;;`,
    'esac',
  ].join('\n'));
  const osRelease = join(dir, 'os-release');
  const version = pi.codename === 'bookworm' ? '12' : '13';
  writeFileSync(osRelease, `PRETTY_NAME="Raspberry Pi OS GNU/Linux ${version} (${pi.codename})"\nID=debian\nVERSION_ID="${version}"\nVERSION_CODENAME=${pi.codename}\n`);
  const model = join(dir, 'model');
  writeFileSync(model, `${pi.model ?? 'Raspberry Pi 4 Model B Rev 1.4'}\0`);
  const configTxt = join(dir, 'config.txt');
  writeFileSync(configTxt, 'dtparam=audio=on\n');
  return {
    configTxt,
    env: { PATH: `${bin}:/usr/bin:/bin`, OS_RELEASE: osRelease, DEVICE_MODEL: model, BOOT_CONFIG_CANDIDATES: `${join(dir, 'firmware-config.txt')} ${configTxt}` },
  };
}

function bash(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync('bash', args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

describe('scripts/install-pi.sh and uninstall-pi.sh', () => {
  let dir = '';
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('are valid bash', () => {
    expect(bash(['-n', INSTALL]).status).toBe(0);
    expect(bash(['-n', UNINSTALL]).status).toBe(0);
  });

  it('--dry-run prints every install step in order and changes nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'boot-'));
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', aptNode: '20.19.2+dfsg-1' });
    const { status, out } = bash([INSTALL, '--dry-run'], pi.env);
    expect(status).toBe(0);
    const steps = out.split('\n').filter((line) => line.startsWith('==> ')).map((line) => line.slice(4));
    expect(steps).toEqual([
      'Checking the system',
      'Node.js (>= 20.19)',
      'Build tools for the native modules',
      'pigpio C library (servo PWM, HC-SR04 timing)',
      'Copying the application to /opt/greenhouse-gateway.new (owned by root)',
      "Installing dependencies (npm ci: package.json's allowScripts approves the native builds)",
      'Building the dashboard and compiling the server (npm run build)',
      'Stopping the running gateway and switching /opt/greenhouse-gateway to the new version',
      'Configuration in /etc/greenhouse-gateway/config.json',
      'Enabling I2C (ADS1115)',
      'Installing and starting the systemd unit',
      'First run',
    ]);
    expect(out).toContain('would run: chown -R root:root /opt/greenhouse-gateway.new');
    expect(out).toContain('would run: env -C /opt/greenhouse-gateway.new npm ci');
    expect(out).toContain('would run: mv /opt/greenhouse-gateway.new /opt/greenhouse-gateway');
    expect(out).toContain('would run: systemctl enable greenhouse-gateway.service');
    expect(readFileSync(pi.configTxt, 'utf8')).toBe('dtparam=audio=on\n');
  });

  it('bookworm, 32 bit: apt\'s Node.js 18 is too old, so Node.js 22 comes from NodeSource, and says so', () => {
    dir = mkdtempSync(join(tmpdir(), 'boot-'));
    const pi = fakePi(dir, { codename: 'bookworm', arch: 'armhf', node: '18.19.0', aptNode: '18.19.0+dfsg-6~deb12u2', aptPigpio: { 'libpigpio-dev': '1.79-1+rpt1' } });
    const { status, out } = bash([INSTALL, '--dry-run'], pi.env);
    expect(status).toBe(0);
    expect(out).toContain('Raspberry Pi OS GNU/Linux 12 (bookworm), armhf');
    expect(out).toContain('apt offers Node.js 18.19.0 (older than 20.19): installing Node.js 22.x');
    expect(out).toContain("from NodeSource's apt repository (https://deb.nodesource.com/node_22.x");
    expect(out).toContain('would run: curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key | gpg --dearmor -o /etc/apt/keyrings/nodesource.gpg');
    expect(out).toContain("would run: echo 'deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_22.x nodistro main' > /etc/apt/sources.list.d/nodesource.list");
    expect(out).toMatch(/would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs\n/);
    // libpigpio-dev without pigpiod: the npm module would build a stub, so the library is built.
    expect(out).toContain('apt has no complete pigpio (library and pigpiod): building release 79 from source');
    expect(out).toContain('https://github.com/joan2937/pigpio/archive/refs/tags/v79.tar.gz');
    expect(out).not.toContain('apt-get install -y --no-install-recommends libpigpio-dev');
  });

  it('trixie, 64 bit: Node.js from Debian\'s apt, no NodeSource; pigpio built from source (trixie has none)', () => {
    dir = mkdtempSync(join(tmpdir(), 'boot-'));
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', aptNode: '20.19.2+dfsg-1' });
    const { status, out } = bash([INSTALL, '--dry-run'], pi.env);
    expect(status).toBe(0);
    expect(out).toContain('installing Node.js 20.19.2 from Debian\'s apt (nodejs, npm)');
    expect(out).toContain('apt-get install -y --no-install-recommends nodejs npm');
    expect(out).not.toContain('nodesource');
    expect(out).toContain('building release 79 from source');
  });

  it('takes pigpio from apt when it has both the library and pigpiod, and disables pigpiod.service', () => {
    dir = mkdtempSync(join(tmpdir(), 'boot-'));
    const pi = fakePi(dir, { codename: 'bookworm', arch: 'arm64', node: '22.12.0', aptPigpio: { 'libpigpio-dev': '1.79-1', pigpiod: '1.79-1' }, pigpiodUnit: true });
    const { status, out } = bash([INSTALL, '--dry-run'], pi.env);
    expect(status).toBe(0);
    expect(out).toContain('Node.js 22.12.0 is installed: kept');
    expect(out).toContain('apt-get install -y --no-install-recommends libpigpio-dev pigpiod');
    expect(out).not.toContain('from source');
    expect(out).toContain('would run: systemctl disable --now pigpiod.service');
  });

  it('on a Pi 5 installs without pigpio and says servo and water level are unavailable', () => {
    dir = mkdtempSync(join(tmpdir(), 'boot-'));
    const pi = fakePi(dir, { codename: 'bookworm', arch: 'arm64', node: '20.19.0', model: 'Raspberry Pi 5 Model B Rev 1.0' });
    const { status, out } = bash([INSTALL, '--dry-run'], pi.env);
    expect(status).toBe(0);
    expect(out).toContain('not on a Pi 5 (pigpio cannot drive it): servo and water level unavailable');
    expect(out).toContain('Installed without pigpio: the servo (roof window) and the HC-SR04 (water level) are unavailable.');
    expect(out).not.toContain('pigpio/archive');
  });

  it('an upgrade stops the running gateway only after the new version is built, and restarts it', () => {
    dir = mkdtempSync(join(tmpdir(), 'boot-'));
    const pi = fakePi(dir, { codename: 'trixie', arch: 'arm64', node: '20.19.2', active: true });
    const { status, out } = bash([INSTALL, '--dry-run'], pi.env);
    expect(status).toBe(0);
    const at = (text: string) => {
      const index = out.indexOf(text);
      expect(index, text).toBeGreaterThanOrEqual(0);
      return index;
    };
    expect(at('npm run build')).toBeLessThan(at('would run: systemctl stop greenhouse-gateway.service'));
    expect(at('would run: systemctl stop greenhouse-gateway.service')).toBeLessThan(at('would run: mv /opt/greenhouse-gateway.new'));
    expect(at('would run: mv /opt/greenhouse-gateway.new')).toBeLessThan(at('would run: systemctl restart greenhouse-gateway.service'));
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
