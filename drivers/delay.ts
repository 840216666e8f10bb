import type { Clock } from './clock.ts';

/** Waits `delayMs` of the injected clock's time (tests advance a ManualClock instead of sleeping). */
export function delay(clock: Clock, delayMs: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, delayMs));
}

/**
 * Runs async jobs one after another: the DHT11, the shared ADS1115 and the HC-SR04 each take one
 * question at a time (ads1x15 even answers the string "ADC is busy..." to a second caller).
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(job);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
