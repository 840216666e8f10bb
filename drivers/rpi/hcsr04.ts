import { monotonicMs, type Clock, type MonotonicMs } from '../../common/clock.ts';
import { delay, SerialQueue } from '../../common/delay.ts';
import { SensorReadError, type WaterLevelSensor } from '../types.ts';
import {
  distanceCmFromEchoUs,
  echoWidthUs,
  HCSR04_MIN_CYCLE_MS,
  HCSR04_NO_ECHO_US,
  HCSR04_TRIGGER_PULSE_US,
  median,
  waterLevelCm,
} from './hcsr04-convert.ts';
import type { PigpioGpio, PigpioModule } from './native.ts';

const PINGS = 3;
/** Give up on a ping a little after the 38 ms no-obstacle echo would have ended. */
const PING_TIMEOUT_MS = HCSR04_NO_ECHO_US / 1000 + 12;

/** HC-SR04 over the tank via pigpio: median of 3 pings, each at least 60 ms after the previous. */
export class Hcsr04Sensor implements WaterLevelSensor {
  readonly #trigger: PigpioGpio;
  readonly #echo: PigpioGpio;
  readonly #clock: Clock;
  readonly #elapsedMs: MonotonicMs;
  readonly #tankDepthCm: number;
  readonly #airTemperatureC: () => number | null;
  readonly #queue = new SerialQueue();
  #lastPingMs: number | null = null;

  constructor(deps: {
    pigpio: PigpioModule;
    triggerPin: number;
    echoPin: number;
    tankDepthCm: number;
    clock: Clock;
    /** The 60 ms between pings is kept on this (default performance.now), never on the wall clock. */
    monotonicMs?: MonotonicMs;
    /** Air temperature for the speed of sound; null: assume 20 °C. */
    airTemperatureC?: () => number | null;
  }) {
    if (deps.triggerPin === deps.echoPin) throw new RangeError(`HC-SR04 trigger and echo must differ, both are GPIO ${deps.echoPin}`);
    if (!(deps.tankDepthCm > 0)) throw new RangeError(`tankDepthCm must be > 0, got ${deps.tankDepthCm}`);
    const { Gpio } = deps.pigpio;
    this.#trigger = new Gpio(deps.triggerPin, { mode: Gpio.OUTPUT });
    this.#trigger.digitalWrite(0);
    this.#echo = new Gpio(deps.echoPin, { mode: Gpio.INPUT, alert: true });
    this.#clock = deps.clock;
    this.#elapsedMs = deps.monotonicMs ?? monotonicMs;
    this.#tankDepthCm = deps.tankDepthCm;
    this.#airTemperatureC = deps.airTemperatureC ?? (() => null);
  }

  readLevelCm(): Promise<number> {
    return this.#queue.run(async () => {
      const echoesUs: number[] = [];
      for (let i = 0; i < PINGS; i++) {
        const us = await this.#ping();
        if (us !== null) echoesUs.push(us);
      }
      // One stray ping is outvoted by the median; with fewer than two echoes there is nothing to trust.
      if (echoesUs.length < 2) {
        throw new SensorReadError('waterLevel', `no echo within 38 ms (${echoesUs.length} of ${PINGS} pings answered)`);
      }
      const distanceCm = distanceCmFromEchoUs(median(echoesUs), this.#airTemperatureC());
      return waterLevelCm(this.#tankDepthCm, distanceCm);
    });
  }

  async #ping(): Promise<number | null> {
    if (this.#lastPingMs !== null) {
      const waitMs = this.#lastPingMs + HCSR04_MIN_CYCLE_MS - this.#elapsedMs();
      if (waitMs > 0) await delay(this.#clock, waitMs);
    }
    return new Promise((resolve) => {
      let startTick: number | null = null;
      const finish = (echoUs: number | null) => {
        this.#clock.clearTimeout(timer);
        this.#echo.removeListener('alert', onAlert);
        resolve(echoUs);
      };
      const onAlert = (level: 0 | 1, tick: number) => {
        if (level === 1) startTick = tick;
        else if (startTick !== null) {
          const us = echoWidthUs(startTick, tick);
          finish(us >= HCSR04_NO_ECHO_US ? null : us);
        }
      };
      const timer = this.#clock.setTimeout(() => finish(null), PING_TIMEOUT_MS);
      this.#echo.on('alert', onAlert);
      this.#lastPingMs = this.#elapsedMs();
      this.#trigger.trigger(HCSR04_TRIGGER_PULSE_US, 1);
    });
  }
}
