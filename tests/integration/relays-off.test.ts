import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIN_GPIO_CHIP_LABELS } from '../../drivers/rpi/gpio-base.ts';
import { loadConfig } from '../../server/config/load.ts';
// @ts-expect-error plain JavaScript helper without type declarations
import * as helper from '../../scripts/relays-off.mjs';

const HELPER = join(import.meta.dirname, '..', '..', 'scripts', 'relays-off.mjs');

/**
 * A fake /sys/class/gpio of a Pi 4 on a 6.6 kernel (header chip at base 512, the firmware expander at
 * 570) and a fake kernel: a number written to `export` becomes a gpioN directory, as input.
 */
function fakeSysfs(dir: string) {
  const root = join(dir, 'gpio');
  mkdirSync(root, { recursive: true });
  for (const [name, label, base] of [['gpiochip512', 'pinctrl-bcm2711', '512'], ['gpiochip570', 'raspberrypi-exp-gpio', '570']] as const) {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'label'), `${label}\n`);
    writeFileSync(join(root, name, 'base'), `${base}\n`);
    writeFileSync(join(root, name, 'ngpio'), '58\n');
  }
  writeFileSync(join(root, 'export'), '');
  writeFileSync(join(root, 'unexport'), '');
  // The line's files appear whole, as the kernel's do: written aside and renamed in, so the helper that
  // waits for `direction` never meets a file created but not yet written (its "high" would be overwritten).
  const exportLine = (number: number, direction: string, value: string) => {
    const line = join(root, `gpio${number}`);
    const staging = join(dir, `staging-gpio${number}`);
    mkdirSync(staging);
    writeFileSync(join(staging, 'direction'), direction);
    writeFileSync(join(staging, 'value'), value);
    renameSync(staging, line);
  };
  const kernel = setInterval(() => {
    const written = readFileSync(join(root, 'export'), 'utf8').trim();
    if (!written) return;
    writeFileSync(join(root, 'export'), '');
    exportLine(Number(written), 'in', '0');
  }, 5);
  return {
    root,
    exportLine,
    direction: (number: number) => readFileSync(join(root, `gpio${number}`, 'direction'), 'utf8'),
    lines: () => readdirSync(root).filter((name) => /^gpio\d+$/.test(name)).sort(),
    stop: () => clearInterval(kernel),
  };
}

function runHelper(env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [HELPER], { env: { PATH: process.env.PATH, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('scripts/relays-off.mjs (the unit\'s ExecStopPost) against a fake sysfs', () => {
  let dir = '';
  let sysfs: ReturnType<typeof fakeSysfs> | null = null;
  afterEach(() => {
    sysfs?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drives every configured relay to its OFF level, exported or not, offset by the chip base; leaves the servo', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relays-off-'));
    sysfs = fakeSysfs(dir);
    // The pump (active-low, GPIO 17 = sysfs 529) was left ON by a crashed gateway: output, low.
    sysfs.exportLine(529, 'out', '0');
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({
      outputs: [
        { outputId: 'relay-1', kind: 'relay', pin: 17, activeLow: true },
        { outputId: 'relay-2', kind: 'relay', pin: 27, activeLow: false },
        { outputId: 'servo-1', kind: 'servo', pin: 18 },
      ],
    }));
    const result = await runHelper({ GREENHOUSE_CONFIG: config, GREENHOUSE_GPIO_SYSFS: sysfs.root });
    expect(result, result.err).toMatchObject({ code: 0 });
    expect(result.out).toContain('2 of 2 relays driven off (GPIO chip base 512)');
    expect(sysfs.direction(529)).toBe('high'); // active-low: off = high level
    expect(sysfs.direction(539)).toBe('low'); // exported by the helper, off = low level
    expect(sysfs.lines()).toEqual(['gpio529', 'gpio539']); // nothing for the servo's GPIO 18 (530)
  });

  it('uses the built-in default outputs when the config names none (the gateway\'s own defaults)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relays-off-'));
    sysfs = fakeSysfs(dir);
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ greenhouseId: 'greenhouse-001' }));
    const result = await runHelper({ GREENHOUSE_CONFIG: config, GREENHOUSE_GPIO_SYSFS: sysfs.root });
    expect(result, result.err).toMatchObject({ code: 0 });
    const relays = loadConfig({ GREENHOUSE_CONFIG: config }).outputs.filter((o) => o.kind === 'relay');
    expect(relays).toHaveLength(8);
    expect(sysfs.lines()).toEqual(relays.map((relay) => `gpio${512 + relay.pin}`).sort());
    for (const relay of relays) expect(sysfs.direction(512 + relay.pin)).toBe(relay.activeLow ? 'high' : 'low');
  });

  it('fails loudly (exit 1, naming the chips it saw) when the header GPIO chip is missing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relays-off-'));
    sysfs = fakeSysfs(dir);
    rmSync(join(sysfs.root, 'gpiochip512'), { recursive: true });
    const result = await runHelper({ GREENHOUSE_GPIO_SYSFS: sysfs.root });
    expect(result.code).toBe(1);
    expect(result.err).toContain('no Raspberry Pi header GPIO chip among raspberrypi-exp-gpio@570');
    expect(existsSync(join(sysfs.root, 'gpio529'))).toBe(false);
  });

  it('reports a relay it could not switch off and still switches off the others', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relays-off-'));
    sysfs = fakeSysfs(dir);
    sysfs.stop(); // a kernel that never creates the exported line
    sysfs.exportLine(529, 'out', '0');
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ outputs: [{ outputId: 'relay-1', kind: 'relay', pin: 17, activeLow: true }, { outputId: 'relay-2', kind: 'relay', pin: 27, activeLow: true }] }));
    const result = await runHelper({ GREENHOUSE_CONFIG: config, GREENHOUSE_GPIO_SYSFS: sysfs.root });
    expect(result.code).toBe(1);
    expect(sysfs.direction(529)).toBe('high');
    expect(result.err).toContain('could not switch off relay-2 (GPIO 27)');
  });

  describe('without sysfs GPIO: through the character device with Debian\'s gpioset', () => {
    /** Fake gpiodetect and gpioset (libgpiod v1 or v2) that record their arguments. */
    function fakeGpiod(major: 1 | 2, chips = 'gpiochip0 [pinctrl-bcm2711] (58 lines)\ngpiochip1 [raspberrypi-exp-gpio] (8 lines)') {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      const calls = join(dir, 'calls');
      writeFileSync(join(bin, 'gpiodetect'), `#!/bin/sh\nprintf '%s\\n' '${chips.split('\n').join("' '")}'\n`);
      writeFileSync(join(bin, 'gpioset'), `#!/bin/sh\nif [ "$1" = --version ]; then echo "gpioset (libgpiod) v${major === 1 ? '1.6.3' : '2.1.3'}"; exit 0; fi\necho "$*" >> ${calls}\n`);
      chmodSync(join(bin, 'gpiodetect'), 0o755);
      chmodSync(join(bin, 'gpioset'), 0o755);
      return { PATH: `${bin}:${process.env.PATH}`, calls };
    }
    const relaysConfig = () => {
      const config = join(dir, 'config.json');
      writeFileSync(config, JSON.stringify({ outputs: [{ outputId: 'relay-1', kind: 'relay', pin: 17, activeLow: true }, { outputId: 'relay-2', kind: 'relay', pin: 27, activeLow: false }, { outputId: 'servo-1', kind: 'servo', pin: 18 }] }));
      return config;
    };

    it.each([
      [1, '--mode=exit gpiochip0 17=1 27=0'],
      [2, '-c gpiochip0 -t 0 17=1 27=0'],
    ] as const)('libgpiod v%i: one gpioset on the header chip sets every relay to its OFF level and exits', async (major, args) => {
      dir = mkdtempSync(join(tmpdir(), 'relays-off-'));
      const gpiod = fakeGpiod(major);
      const result = await runHelper({ PATH: gpiod.PATH, GREENHOUSE_CONFIG: relaysConfig(), GREENHOUSE_GPIO_SYSFS: join(dir, 'no-sysfs') });
      expect(result, result.err).toMatchObject({ code: 0 });
      expect(result.out).toContain(`2 of 2 relays driven off through the GPIO character device (gpiochip0, libgpiod v${major})`);
      expect(readFileSync(gpiod.calls, 'utf8')).toBe(`${args}\n`);
    });

    it('fails loudly when gpioset is not installed or no header chip is found', async () => {
      dir = mkdtempSync(join(tmpdir(), 'relays-off-'));
      const missing = await runHelper({ PATH: join(dir, 'empty'), GREENHOUSE_CONFIG: relaysConfig(), GREENHOUSE_GPIO_SYSFS: join(dir, 'no-sysfs') });
      expect(missing.code).toBe(1);
      expect(missing.err).toContain('gpiodetect: not installed (apt-get install gpiod)');
      const gpiod = fakeGpiod(2, 'gpiochip1 [raspberrypi-exp-gpio] (8 lines)');
      const noChip = await runHelper({ PATH: gpiod.PATH, GREENHOUSE_CONFIG: relaysConfig(), GREENHOUSE_GPIO_SYSFS: join(dir, 'no-sysfs') });
      expect(noChip.code).toBe(1);
      expect(noChip.err).toContain('no Raspberry Pi header GPIO chip among gpiochip1 [raspberrypi-exp-gpio]');
    });
  });

  it('finds the header chip by the same labels as the gateway\'s relay driver', () => {
    expect(helper.MAIN_GPIO_CHIP_LABELS).toEqual([...MAIN_GPIO_CHIP_LABELS]);
  });
});
