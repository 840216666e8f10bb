import type { Clock } from './clock.ts';

/** Waits `delayMs` of the injected clock's time (tests advance a ManualClock instead of sleeping). */
export function delay(clock: Clock, delayMs: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, delayMs));
}

/**
 * Runs async jobs one after another, in the order asked: a sensor that takes one question at a time
 * (ads1x15 even answers "ADC is busy..." to a second caller), the one control path, the data lifecycle.
 * A failed job does not stop the ones behind it.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(job);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every job queued so far, and any queued while waiting, has settled. */
  async idle(): Promise<void> {
    for (;;) {
      const tail = this.#tail;
      await tail;
      if (tail === this.#tail) return;
    }
  }
}
