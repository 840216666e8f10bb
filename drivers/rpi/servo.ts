import type { SwitchOutput } from '../types.ts';
import type { PigpioGpio, PigpioModule } from './native.ts';
import { pulseFor, validatePulseUs, type ServoPulses } from './servo-convert.ts';

/** The roof-window servo via pigpio's 50 Hz servo pulses; on = open. */
export class ServoOutput implements SwitchOutput {
  readonly kind = 'servo' as const;
  readonly outputId: string;
  readonly #gpio: PigpioGpio;
  readonly #pulses: ServoPulses;

  constructor(deps: { pigpio: PigpioModule; outputId: string; pin: number } & ServoPulses) {
    this.outputId = deps.outputId;
    this.#pulses = {
      openPulseUs: validatePulseUs('openPulseUs', deps.openPulseUs),
      closedPulseUs: validatePulseUs('closedPulseUs', deps.closedPulseUs),
    };
    this.#gpio = new deps.pigpio.Gpio(deps.pin, { mode: deps.pigpio.Gpio.OUTPUT });
  }

  async set(open: boolean): Promise<void> {
    this.#gpio.servoWrite(pulseFor(open, this.#pulses));
  }
}
