import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findGpioBase, lookUpGpioBase, readGpioChips, sysfsNumber } from '../../../../drivers/rpi/gpio-base.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function fakeSysfs(chips: Array<{ name: string; label: string; base: number; ngpio: number }>) {
  const root = await mkdtemp(join(tmpdir(), 'sysfs-gpio-'));
  dirs.push(root);
  await writeFile(join(root, 'export'), '');
  for (const c of chips) {
    await mkdir(join(root, c.name));
    await writeFile(join(root, c.name, 'label'), `${c.label}\n`);
    await writeFile(join(root, c.name, 'base'), `${c.base}\n`);
    await writeFile(join(root, c.name, 'ngpio'), `${c.ngpio}\n`);
  }
  return root;
}

describe('GPIO chip base', () => {
  it('picks the SoC chip, not the firmware expander', () => {
    expect(
      findGpioBase([
        { label: 'raspberrypi-exp-gpio', base: 570, ngpio: 8 },
        { label: 'pinctrl-bcm2711', base: 512, ngpio: 58 },
      ]),
    ).toBe(512);
    expect(findGpioBase([{ label: 'pinctrl-bcm2835', base: 0, ngpio: 54 }])).toBe(0);
    expect(
      findGpioBase([
        { label: 'gpio-brcmstb@107d508500', base: 512, ngpio: 32 },
        { label: 'pinctrl-rp1', base: 571, ngpio: 54 },
      ]),
    ).toBe(571);
  });
  it('says which chips it saw when none fits', () => {
    expect(() => findGpioBase([{ label: 'raspberrypi-exp-gpio', base: 570, ngpio: 8 }])).toThrow(/raspberrypi-exp-gpio@570/);
    expect(() => findGpioBase([])).toThrow(/none/);
  });
  it('reads label and base from a sysfs directory', async () => {
    const root = await fakeSysfs([
      { name: 'gpiochip512', label: 'pinctrl-bcm2711', base: 512, ngpio: 58 },
      { name: 'gpiochip570', label: 'raspberrypi-exp-gpio', base: 570, ngpio: 8 },
    ]);
    expect(await readGpioChips(root)).toHaveLength(2);
    expect(await lookUpGpioBase(root)).toBe(512);
  });
  it('offsets the BCM number and checks it', () => {
    expect(sysfsNumber(17, 512)).toBe(529);
    expect(sysfsNumber(17, 0)).toBe(17);
    expect(() => sysfsNumber(28, 512)).toThrow(/28/);
  });
});
