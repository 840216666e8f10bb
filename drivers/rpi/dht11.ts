import { monotonicMs, type Clock, type MonotonicMs } from '../clock.ts';
import { delay, SerialQueue } from '../delay.ts';
import { SensorReadError, type ClimateReading, type ClimateSensor } from '../types.ts';
import { DHT11_MIN_INTERVAL_MS, isPossiblyCached, validateDht11 } from './dht11-convert.ts';
import type { DhtModule } from './native.ts';

const DHT11_TYPE = 11;

/**
 * DHT11 through node-dht-sensor. One native call at a time, at least a second apart on a monotonic
 * clock. The library's own retries are switched off: each blocks a thread-pool thread for 450 ms, past
 * the sampler's read timeout, so the sampler retries with its back-off instead (server/sensors).
 */
export class Dht11Sensor implements ClimateSensor {
  readonly #dht: DhtModule;
  readonly #pin: number;
  readonly #clock: Clock;
  readonly #elapsedMs: MonotonicMs;
  readonly #queue = new SerialQueue();
  #lastCallMs: number | null = null;
  #lastFresh: { atMs: number; reading: ClimateReading } | null = null;

  constructor(deps: { dht: DhtModule; pin: number; clock: Clock; monotonicMs?: MonotonicMs }) {
    if (!Number.isInteger(deps.pin) || deps.pin < 0 || deps.pin > 27) throw new RangeError(`DHT11 pin must be BCM 0-27, got ${deps.pin}`);
    this.#dht = deps.dht;
    this.#pin = deps.pin;
    this.#clock = deps.clock;
    this.#elapsedMs = deps.monotonicMs ?? monotonicMs;
    this.#dht.setMaxRetries(0);
  }

  /** The last fresh reading, for the HC-SR04's speed-of-sound compensation. */
  get lastReading(): ClimateReading | null {
    return this.#lastFresh?.reading ?? null;
  }

  read(): Promise<ClimateReading> {
    return this.#queue.run(() => this.#readOnce());
  }

  async #readOnce(): Promise<ClimateReading> {
    if (this.#lastCallMs !== null) {
      const waitMs = this.#lastCallMs + DHT11_MIN_INTERVAL_MS - this.#elapsedMs();
      if (waitMs > 0) await delay(this.#clock, waitMs);
    }
    this.#lastCallMs = this.#elapsedMs();
    const raw = await new Promise<{ temperature: number; humidity: number }>((resolve, reject) => {
      this.#dht.read(DHT11_TYPE, this.#pin, (err, temperature, humidity) => {
        if (err) reject(new SensorReadError('climate', `DHT11 on GPIO ${this.#pin}: ${err.message}`));
        else resolve({ temperature, humidity });
      });
    });
    const reading = validateDht11(raw.temperature, raw.humidity);
    // The library's cache window is measured on its own steady clock: compare on ours.
    const nowMs = this.#elapsedMs();
    // node-dht-sensor answers its cache of the last good frame as a success for 3 s.
    if (isPossiblyCached(this.#lastFresh, nowMs, reading)) {
      throw new SensorReadError('climate', 'no fresh reading (node-dht-sensor repeated its cached value)');
    }
    this.#lastFresh = { atMs: nowMs, reading };
    return reading;
  }
}
