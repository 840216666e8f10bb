import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * Since Linux 6.6 Raspberry Pi OS kernels no longer pin the SoC GPIO chip at base 0 in the sysfs
 * numbering: on a Pi 4 it is 512, on a Pi 5 the RP1 chip sits elsewhere. Writing the bare BCM number
 * to /sys/class/gpio/export then fails with EINVAL, so look the base up from the chip's label.
 */

export interface GpioChipEntry {
  label: string;
  base: number;
  ngpio: number;
}

/** Labels of the chips that carry the 40-pin header, by board family. */
export const MAIN_GPIO_CHIP_LABELS = ['pinctrl-bcm2711', 'pinctrl-bcm2835', 'pinctrl-rp1'] as const;

/** Picks the header's chip; expanders such as 'raspberrypi-exp-gpio' and 'brcmstb-gpio' are not it. */
export function findGpioBase(entries: readonly GpioChipEntry[]): number {
  for (const label of MAIN_GPIO_CHIP_LABELS) {
    const chip = entries.find((e) => e.label === label);
    if (chip) return chip.base;
  }
  const labels = entries.map((e) => `${e.label}@${e.base}`).join(', ') || 'none';
  throw new Error(`no Raspberry Pi header GPIO chip (${MAIN_GPIO_CHIP_LABELS.join(', ')}) among sysfs gpiochips: ${labels}`);
}

export function sysfsNumber(bcm: number, base: number): number {
  if (!Number.isInteger(bcm) || bcm < 0 || bcm > 27) throw new RangeError(`BCM GPIO must be 0-27, got ${bcm}`);
  return base + bcm;
}

/** Reads label, base and ngpio of every /sys/class/gpio/gpiochipN (root is a parameter for tests). */
export async function readGpioChips(sysfsRoot = '/sys/class/gpio'): Promise<GpioChipEntry[]> {
  const names = (await readdir(sysfsRoot)).filter((n) => /^gpiochip\d+$/.test(n));
  const chips: GpioChipEntry[] = [];
  for (const name of names) {
    const read = (file: string) => readFile(join(sysfsRoot, name, file), 'utf8').then((s) => s.trim());
    const [label, base, ngpio] = await Promise.all([read('label'), read('base'), read('ngpio').catch(() => '0')]);
    chips.push({ label, base: Number(base), ngpio: Number(ngpio) });
  }
  return chips;
}

export async function lookUpGpioBase(sysfsRoot?: string): Promise<number> {
  return findGpioBase(await readGpioChips(sysfsRoot));
}
