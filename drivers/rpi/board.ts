import { readFile } from 'node:fs/promises';

/** Where the device tree exposes the board name ("Raspberry Pi 4 Model B Rev 1.4\0"). */
export const BOARD_MODEL_PATHS = ['/proc/device-tree/model', '/sys/firmware/devicetree/base/model'];

/** The model string, or null off a Pi (a laptop has neither file). */
export async function readBoardModel(paths: readonly string[] = BOARD_MODEL_PATHS): Promise<string | null> {
  for (const path of paths) {
    try {
      return (await readFile(path, 'utf8')).replace(/\0/g, '').trim();
    } catch {
      // try the next location
    }
  }
  return null;
}

/**
 * pigpio and node-dht-sensor's bcm2835 layer cannot drive the RP1 GPIO chip of the Pi 5 family
 * ("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5").
 */
export function isRaspberryPi5(model: string | null): boolean {
  return model !== null && /Raspberry Pi (5|Compute Module 5)/.test(model);
}
