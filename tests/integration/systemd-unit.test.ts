import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const UNIT = join(import.meta.dirname, '..', '..', 'systemd', 'greenhouse-gateway.service');
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

/** Every `Key=value` of the unit, by key (a key may repeat). */
function directives(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) map.set(match[1]!, [...(map.get(match[1]!) ?? []), match[2]!]);
  }
  return map;
}

describe('systemd/greenhouse-gateway.service', () => {
  it.skipIf(!hasSystemdAnalyze)('passes systemd-analyze verify without a warning', () => {
    // verify checks that ExecStart's binary exists. The unit names Debian's /usr/bin/node (Raspberry Pi
    // OS); a machine whose Node lives elsewhere verifies a copy pointing at its own binary.
    let unitPath = UNIT;
    const dir = mkdtempSync(join(tmpdir(), 'unit-'));
    if (!existsSync('/usr/bin/node')) {
      unitPath = join(dir, 'greenhouse-gateway.service');
      writeFileSync(unitPath, readFileSync(UNIT, 'utf8').replace('/usr/bin/node', process.execPath));
    }
    const result = spawnSync('systemd-analyze', ['verify', unitPath], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    const complaints = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => line.includes('greenhouse-gateway'));
    expect(complaints).toEqual([]);
    expect(result.status).toBe(0);
  });
  if (!hasSystemdAnalyze) it.skip('systemd-analyze is not installed: `apt-get install systemd` to verify the unit', () => {});

  it('is a confined notify service with a watchdog and no restart loop on bad config', () => {
    const unit = directives(readFileSync(UNIT, 'utf8'));
    const one = (key: string) => unit.get(key)?.at(-1);
    expect(one('Type')).toBe('notify');
    // The gateway notifies from its own PID (no systemd-notify child any more).
    expect(one('NotifyAccess')).toBe('main');
    expect(one('WatchdogSec')).toBe('30s');
    expect(one('Restart')).toBe('on-failure');
    expect(one('RestartPreventExitStatus')).toBe('78');
    expect(one('StateDirectory')).toBe('greenhouse-gateway');
    expect(unit.get('Environment')).toEqual(
      expect.arrayContaining([
        'GREENHOUSE_DATA_DIR=/var/lib/greenhouse-gateway',
        'GREENHOUSE_CONFIG=/etc/greenhouse-gateway/config.json',
        'GREENHOUSE_HARDWARE=raspberry-pi',
        'HTTPS_PORT=8443',
      ]),
    );
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('PrivateTmp')).toBe('yes');
    expect(one('ProtectHome')).toBe('yes');
    expect(one('DevicePolicy')).toBe('closed');
    expect(unit.get('DeviceAllow')).toEqual(['/dev/gpiomem rw', '/dev/mem rw', '/dev/vcio rw', '/dev/i2c-1 rw', 'char-gpiochip rw']);
    expect(one('CapabilityBoundingSet')).toBe('CAP_SYS_RAWIO');
    expect(one('SupplementaryGroups')).toBe('gpio i2c');
    expect(one('RestrictAddressFamilies')).toBe('AF_UNIX AF_INET AF_INET6 AF_NETLINK');
    // Compiled JavaScript with plain node (no tsx, no npm); the relays go off after every exit.
    expect(one('ExecStart')).toBe('/usr/bin/node dist/server/main.js');
    expect(one('ExecStopPost')).toBe('/usr/bin/node scripts/relays-off.mjs');
    expect(one('WorkingDirectory')).toBe('/opt/greenhouse-gateway');
    // The shutdown deadline of server/appliance/lifecycle.ts (10 s) must fit inside TimeoutStopSec.
    expect(Number.parseInt(one('TimeoutStopSec')!, 10)).toBeGreaterThan(10);
  });
});
