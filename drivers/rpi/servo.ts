import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { SwitchOutput } from '../types.ts';
import type { PigpioGpio, PigpioModule } from './native.ts';
import { pulseFor, pulseForOpenPct, validatePulseUs, type ServoPulses } from './servo-convert.ts';

/*
 * How long the servo is driven before its pulses stop. An SG90 turns 60° in 0.1 s at 4.8 V (datasheet
 * "operating speed"), so 180° takes ~0.3 s; a roof window's linkage under load is slower, and 1.5 s
 * leaves room. With the pulses stopped (pigpio servoWrite 0) a hobby servo no longer corrects its
 * position: no jitter around the set point and no heat in its motor, and the gearing holds the window.
 */
export const SERVO_SETTLE_MS = 1500;

/** The roof-window servo via pigpio's 50 Hz servo pulses; on = open, or part-way with setOpenPct. */
export class ServoOutput implements SwitchOutput {
  readonly kind = 'servo' as const;
  readonly outputId: string;
  readonly #gpio: PigpioGpio;
  readonly #pulses: ServoPulses;
  readonly #clock: Clock | null;
  readonly #settleMs: number;
  #stopTimer: TimerHandle | null = null;

  constructor(deps: { pigpio: PigpioModule; outputId: string; pin: number; clock?: Clock; settleMs?: number } & ServoPulses) {
    this.outputId = deps.outputId;
    this.#pulses = {
      openPulseUs: validatePulseUs('openPulseUs', deps.openPulseUs),
      closedPulseUs: validatePulseUs('closedPulseUs', deps.closedPulseUs),
    };
    this.#clock = deps.clock ?? null;
    this.#settleMs = deps.settleMs ?? SERVO_SETTLE_MS;
    this.#gpio = new deps.pigpio.Gpio(deps.pin, { mode: deps.pigpio.Gpio.OUTPUT });
  }

  async set(open: boolean): Promise<void> {
    this.#drive(pulseFor(open, this.#pulses));
  }

  async setOpenPct(pct: number): Promise<void> {
    this.#drive(pulseForOpenPct(pct, this.#pulses));
  }

  #drive(pulseUs: number): void {
    if (this.#stopTimer && this.#clock) this.#clock.clearTimeout(this.#stopTimer);
    this.#stopTimer = null;
    this.#gpio.servoWrite(pulseUs);
    // Once in position the pulses stop (see SERVO_SETTLE_MS).
    if (this.#clock) {
      this.#stopTimer = this.#clock.setTimeout(() => {
        this.#stopTimer = null;
        try {
          this.#gpio.servoWrite(0);
        } catch {
          // Stopping the pulses spares the servo; the window holds its position either way, and a timer
          // must not throw (pigpio may already be shutting down).
        }
      }, this.#settleMs);
    }
  }

  /** Shutdown: no pending stop may call into pigpio once it is terminated (which stops every pulse itself). */
  close(): void {
    if (this.#stopTimer && this.#clock) this.#clock.clearTimeout(this.#stopTimer);
    this.#stopTimer = null;
  }
}
