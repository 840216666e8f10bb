import type { SwitchOutput } from '../types.ts';
import { sysfsNumber } from './gpio-base.ts';
import type { OnoffGpio, OnoffModule } from './native.ts';
import { levelFor, offDirection } from './relay-level.ts';

/** One relay channel through onoff (sysfs GPIO). Exported already at its OFF level. */
export class RelayOutput implements SwitchOutput {
  readonly kind = 'relay' as const;
  readonly outputId: string;
  readonly #gpio: OnoffGpio;
  readonly #activeLow: boolean;

  constructor(deps: { onoff: OnoffModule; outputId: string; pin: number; activeLow: boolean; gpioBase: number }) {
    this.outputId = deps.outputId;
    this.#activeLow = deps.activeLow;
    this.#gpio = new deps.onoff.Gpio(sysfsNumber(deps.pin, deps.gpioBase), offDirection(deps.activeLow));
  }

  async set(on: boolean): Promise<void> {
    await this.#gpio.write(levelFor(on, this.#activeLow));
  }

  /** Releases the sysfs line (the level stays where safeState left it). */
  close(): void {
    this.#gpio.unexport();
  }
}
