import { delay } from '../../common/delay.ts';
import type { Clock } from '../../common/clock.ts';
import type { QuantityValues } from '../../drivers/types.ts';
import type { Probe } from './probes.ts';

export type ProbeValues = QuantityValues;
export type ProbeOutcome =
  | { ok: true; values: ProbeValues; readAtMs: number; attempts: number }
  | { ok: false; error: string; attempts: number };

/** Rejects when `promise` has not settled within `ms` of the injected clock. */
export function withTimeout<T>(clock: Clock, promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clock.clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * Reads one sensor within `deadlineMs`, retrying per the probe's delays. A read that outlives its timeout
 * keeps running in the driver; until it settles the sensor counts as busy and is not asked again, so
 * a hung driver cannot pile up reads.
 */
export class ProbeReader {
  #inFlight: Promise<unknown> | null = null;

  constructor(
    readonly probe: Probe,
    private readonly clock: Clock,
    private readonly readTimeoutMs: number,
  ) {}

  async read(deadlineMs: number): Promise<ProbeOutcome> {
    let attempts = 0;
    let error = 'no attempt fitted in the tick budget';
    for (;;) {
      const remainingMs = deadlineMs - this.clock.now();
      if (remainingMs <= 0) break;
      attempts++;
      try {
        const values = await this.#attempt(Math.min(this.readTimeoutMs, remainingMs));
        return { ok: true, values, readAtMs: this.clock.now(), attempts };
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      const delayMs = this.probe.retryDelaysMs[attempts - 1];
      // Retry only when the wait still leaves room for a read before the deadline.
      if (delayMs === undefined || this.clock.now() + delayMs >= deadlineMs) break;
      await delay(this.clock, delayMs);
    }
    return { ok: false, error, attempts };
  }

  async #attempt(timeoutMs: number): Promise<ProbeValues> {
    if (this.#inFlight) throw new Error('previous read still in progress');
    const pending = this.probe.read();
    this.#inFlight = pending;
    const clear = () => {
      if (this.#inFlight === pending) this.#inFlight = null;
    };
    pending.then(clear, clear);
    return withTimeout(this.clock, pending, timeoutMs);
  }
}
