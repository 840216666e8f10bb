import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const INSTALL = join(ROOT, 'scripts', 'install-pi.sh');
const UNINSTALL = join(ROOT, 'scripts', 'uninstall-pi.sh');

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
    const configTxt = join(dir, 'config.txt');
    writeFileSync(configTxt, 'dtparam=audio=on\n');
    const { status, out } = bash([INSTALL, '--dry-run'], { BOOT_CONFIG_CANDIDATES: `${join(dir, 'firmware-config.txt')} ${configTxt}` });
    expect(status).toBe(0);
    const steps = out.split('\n').filter((line) => line.startsWith('==> ')).map((line) => line.slice(4));
    expect(steps).toEqual([
      'Checking the system',
      'Installing Node.js (>= 20.19) and the build tools for the native modules',
      'Copying the application to /opt/greenhouse-gateway',
      "Installing dependencies (npm ci: package.json's allowScripts approves the native builds)",
      'Building the dashboard',
      'Configuration in /etc/greenhouse-gateway/config.json',
      'Enabling I2C (ADS1115)',
      'Releasing GPIO lines when the process exits (dtparam=strict_gpiod)',
      'Installing and starting the systemd unit',
      'First run',
    ]);
    expect(out).toContain('would run: env -C /opt/greenhouse-gateway npm ci');
    expect(out).toContain(`would append dtparam=strict_gpiod to ${configTxt}`);
    expect(out).toContain('would run: systemctl enable greenhouse-gateway.service');
    expect(readFileSync(configTxt, 'utf8')).toBe('dtparam=audio=on\n');
  });

  it('recognises strict_gpiod already set (idempotent re-run)', () => {
    dir = mkdtempSync(join(tmpdir(), 'boot-'));
    const configTxt = join(dir, 'config.txt');
    writeFileSync(configTxt, '[all]\ndtparam=strict_gpiod\n');
    const { status, out } = bash([INSTALL, '--dry-run'], { BOOT_CONFIG_CANDIDATES: configTxt });
    expect(status).toBe(0);
    expect(out).toContain(`already set in ${configTxt}`);
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
