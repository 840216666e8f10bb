import { monotonicMs, type Clock, type MonotonicMs } from '../../common/clock.ts';
import { delay, SerialQueue } from '../../common/delay.ts';
import { SensorReadError, type ClimateReading, type ClimateSensor } from '../types.ts';
import { DHT11_MIN_INTERVAL_MS, isPossiblyCached, validateDht11 } from './dht11-convert.ts';
import { DHT22_MIN_INTERVAL_MS, validateDht22 } from './dht22-convert.ts';
import type { DhtModule } from './native.ts';

/** What differs between the DHT models node-dht-sensor reads. */
export interface DhtModel {
  /** node-dht-sensor's sensor type. */
  type: 11 | 22;
  label: string;
  /** The datasheet's minimum time between two reads. */
  minIntervalMs: number;
  validate(temperatureC: number, humidityPct: number, sensor: string): ClimateReading;
}

export const DHT11_MODEL: DhtModel = { type: 11, label: 'DHT11', minIntervalMs: DHT11_MIN_INTERVAL_MS, validate: validateDht11 };
export const DHT22_MODEL: DhtModel = { type: 22, label: 'DHT22', minIntervalMs: DHT22_MIN_INTERVAL_MS, validate: validateDht22 };

export interface DhtSensorOptions {
  dht: DhtModule;
  model: DhtModel;
  pin: number;
  clock: Clock;
  /** The spacing between native calls is kept on this (default performance.now), never on the wall clock. */
  monotonicMs?: MonotonicMs;
  /** Names the sensor in read errors (its sensorId). */
  sensor?: string;
}

/**
 * A DHT11 or DHT22 through node-dht-sensor. One native call at a time, at least the model's minimum
 * interval apart on a monotonic clock. The library's own retries are switched off: each blocks a
 * thread-pool thread for 450 ms, past the sampler's read timeout, so the sampler retries with its
 * back-off instead (server/sensors).
 */
export class DhtSensor implements ClimateSensor {
  readonly #dht: DhtModule;
  readonly #model: DhtModel;
  readonly #pin: number;
  readonly #clock: Clock;
  readonly #elapsedMs: MonotonicMs;
  readonly #queue = new SerialQueue();
  readonly sensor: string;
  #lastCallMs: number | null = null;
  #lastFresh: { atMs: number; reading: ClimateReading } | null = null;

  constructor(deps: DhtSensorOptions) {
    const { model } = deps;
    if (!Number.isInteger(deps.pin) || deps.pin < 0 || deps.pin > 27) throw new RangeError(`${model.label} pin must be BCM 0-27, got ${deps.pin}`);
    this.#dht = deps.dht;
    this.#model = model;
    this.#pin = deps.pin;
    this.#clock = deps.clock;
    this.#elapsedMs = deps.monotonicMs ?? monotonicMs;
    this.sensor = deps.sensor ?? model.label;
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
    const { type, label, minIntervalMs } = this.#model;
    if (this.#lastCallMs !== null) {
      const waitMs = this.#lastCallMs + minIntervalMs - this.#elapsedMs();
      if (waitMs > 0) await delay(this.#clock, waitMs);
    }
    this.#lastCallMs = this.#elapsedMs();
    const raw = await new Promise<{ temperature: number; humidity: number }>((resolve, reject) => {
      this.#dht.read(type, this.#pin, (err, temperature, humidity) => {
        if (err) reject(new SensorReadError(this.sensor, `${label} on GPIO ${this.#pin}: ${err.message}`));
        else resolve({ temperature, humidity });
      });
    });
    const reading = this.#model.validate(raw.temperature, raw.humidity, this.sensor);
    // The library's cache window is measured on its own steady clock: compare on ours.
    const nowMs = this.#elapsedMs();
    // node-dht-sensor answers its cache of the last good frame as a success for 3 s.
    if (isPossiblyCached(this.#lastFresh, nowMs, reading)) {
      throw new SensorReadError(this.sensor, 'no fresh reading (node-dht-sensor repeated its cached value)');
    }
    this.#lastFresh = { atMs: nowMs, reading };
    return reading;
  }
}
