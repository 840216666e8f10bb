import type { Clock } from '../../common/clock.ts';
import type { Ads1115Options, DeviceType } from '../options.ts';
import { SensorReadError, type ClimateReading, type SensorName } from '../types.ts';
import { validateDht11 } from '../rpi/dht11-convert.ts';
import { luxFromRaw, rawFromLux, rawFromSoilPercent, soilPercentFromRaw, ADS1115_MAX_COUNT } from '../rpi/ads1115-convert.ts';
import { distanceCmFromEchoUs, echoUsFromDistanceCm, HCSR04_NO_ECHO_US, waterLevelCm } from '../rpi/hcsr04-convert.ts';
import { GreenhouseModel, clamp, type GreenhouseState, type OutputEffect } from './model.ts';
import { gaussian, mulberry32, type Random } from './prng.ts';

export type SensorFault = { kind: 'silent' } | { kind: 'stuck'; value?: number };

export interface SimulatedOutputSpec {
  outputId: string;
  kind: 'relay' | 'servo';
  deviceType?: DeviceType;
}

export interface GreenhouseSimulatorOptions {
  clock: Clock;
  seed: number;
  tankDepthCm: number;
  /** The ADS1115 calibration: readings go through the same conversions as on the real board. */
  ads1115: Pick<Ads1115Options, 'soilDryRaw' | 'soilWetRaw' | 'lightCurve'>;
  outputs: readonly SimulatedOutputSpec[];
}

/** A servo is always the roof window; a relay does what its device type says. */
export function effectFor(kind: 'relay' | 'servo', deviceType?: DeviceType): OutputEffect | null {
  if (kind === 'servo') return 'window';
  switch (deviceType) {
    case 'HEATER':
      return 'heater';
    case 'FAN':
      return 'fan';
    case 'COOLING_SYSTEM':
      return 'cooling';
    case 'WATER_PUMP':
      return 'pump';
    case 'LED_LIGHT':
      return 'lights';
    case 'SERVO':
      return 'window';
    case undefined:
      return null;
  }
}

/**
 * One simulated greenhouse driven by an injected clock. The model integrates lazily: every read or
 * change first catches up to clock.now() in fixed steps. Sensor noise comes from its own seeded
 * stream so reading more or less often never changes the physical state.
 */
export class GreenhouseSimulator {
  readonly #clock: Clock;
  readonly #model: GreenhouseModel;
  readonly #noise: Random;
  readonly #ads: GreenhouseSimulatorOptions['ads1115'];
  readonly #outputs = new Map<string, { kind: 'relay' | 'servo'; effect: OutputEffect | null; on: boolean; openPct: number }>();
  readonly #faults = new Map<SensorName, SensorFault>();
  readonly #stuck = new Map<SensorName, number | ClimateReading>();
  readonly #instanceFaults = new Map<string, SensorFault>();

  constructor(opts: GreenhouseSimulatorOptions) {
    this.#clock = opts.clock;
    this.#ads = opts.ads1115;
    // Two independent streams: physics (clouds) and sensor noise.
    this.#model = new GreenhouseModel({ startMs: opts.clock.now(), random: mulberry32(opts.seed), tankDepthCm: opts.tankDepthCm });
    this.#noise = mulberry32(opts.seed ^ 0x9e3779b9);
    for (const o of opts.outputs) this.#outputs.set(o.outputId, { kind: o.kind, effect: effectFor(o.kind, o.deviceType), on: false, openPct: 100 });
  }

  #now(): GreenhouseModel {
    this.#model.advanceTo(this.#clock.now());
    return this.#model;
  }

  /** The true state (no noise, no faults), for tests and demos. */
  snapshot(): GreenhouseState {
    return this.#now().snapshot();
  }

  // ---- outputs ----

  setOutput(outputId: string, on: boolean): void {
    const output = this.#output(outputId);
    this.#now();
    output.on = on;
    output.openPct = 100;
    this.#syncEffects();
  }

  /** A roof window opened part-way (0-100 %): its air exchange is in proportion. */
  setOutputOpenPct(outputId: string, pct: number): void {
    const output = this.#output(outputId);
    this.#now();
    output.on = pct > 0;
    output.openPct = pct;
    this.#syncEffects();
  }

  isOutputOn(outputId: string): boolean {
    return this.#output(outputId).on;
  }

  /** How far a window output is open (0-100); 0 when closed. */
  outputOpenPct(outputId: string): number {
    const output = this.#output(outputId);
    return output.on ? output.openPct : 0;
  }

  /** Rebinds what an output does, e.g. when the dashboard binds a new device to a free relay. */
  setOutputEffect(outputId: string, effect: OutputEffect | null): void {
    const output = this.#output(outputId);
    this.#now();
    output.effect = effect;
    this.#syncEffects();
  }

  #output(outputId: string) {
    const output = this.#outputs.get(outputId);
    if (!output) throw new RangeError(`unknown simulated output '${outputId}'`);
    return output;
  }

  #syncEffects(): void {
    this.#model.effects.clear();
    for (const o of this.#outputs.values()) if (o.on && o.effect) this.#model.effects.add(o.effect);
    const windows = [...this.#outputs.values()].filter((o) => o.on && o.effect === 'window');
    this.#model.windowOpenFraction = windows.length > 0 ? Math.max(...windows.map((o) => o.openPct)) / 100 : 1;
  }

  // ---- test and demo controls ----

  injectFault(sensor: SensorName, fault: SensorFault | null): void {
    this.#stuck.delete(sensor);
    if (fault) this.#faults.set(sensor, fault);
    else this.#faults.delete(sensor);
  }

  /** Faults one sensor instance by its sensorId (null clears it); the others of its zone go on. */
  injectInstanceFault(sensorId: string, fault: SensorFault | null): void {
    if (fault) this.#instanceFaults.set(sensorId, fault);
    else this.#instanceFaults.delete(sensorId);
  }

  instanceFaultOf(sensorId: string): SensorFault | null {
    return this.#instanceFaults.get(sensorId) ?? null;
  }

  /** The fault injected into a sensor, or null. */
  faultOf(sensor: SensorName): SensorFault | null {
    return this.#faults.get(sensor) ?? null;
  }

  get tankDepthCm(): number {
    return this.#model.tankDepthCm;
  }

  setTankLevelCm(levelCm: number): void {
    const m = this.#now();
    if (!(levelCm >= 0 && levelCm <= m.tankDepthCm)) throw new RangeError(`levelCm must be 0-${m.tankDepthCm}, got ${levelCm}`);
    m.state.tankLevelCm = levelCm;
  }

  setSoilMoisture(pct: number): void {
    if (!(pct >= 0 && pct <= 100)) throw new RangeError(`soil moisture must be 0-100 %, got ${pct}`);
    const m = this.#now();
    m.state.soilMoisturePct = pct;
    // A bed set by hand has no water still on its way to the probe.
    m.state.infiltratingPct = 0;
  }

  setInsideTemperature(temperatureC: number): void {
    if (!Number.isFinite(temperatureC)) throw new RangeError(`temperatureC must be a number, got ${temperatureC}`);
    this.#now().state.insideTemperatureC = temperatureC;
  }

  // ---- sensors (what the simulated drivers call) ----

  async readClimate(): Promise<ClimateReading> {
    return this.#faulted('climate', () => {
      const s = this.#now().state;
      // DHT11 resolution is 1 °C / 1 %RH; its range check applies here as on the board.
      return validateDht11(
        Math.round(s.insideTemperatureC + gaussian(this.#noise, 0.3)),
        Math.round(clamp(s.insideHumidityPct + gaussian(this.#noise, 1), 0, 100)),
      );
    }, (value, last) => ({ temperatureC: value, humidityPct: (last as ClimateReading | undefined)?.humidityPct ?? 50 }));
  }

  async readLux(): Promise<number> {
    return this.#faulted('light', () => {
      // Night reads as the curve's lowest point (clamped), exactly as the real LDR would.
      const raw = this.#adcCounts(rawFromLux(this.#now().luxAt(), this.#ads.lightCurve), 20);
      return luxFromRaw(raw, this.#ads.lightCurve);
    });
  }

  async readSoilPercent(): Promise<number> {
    return this.#faulted('soil', () => {
      const cal = { dryRaw: this.#ads.soilDryRaw, wetRaw: this.#ads.soilWetRaw };
      const raw = this.#adcCounts(rawFromSoilPercent(this.#now().state.soilMoisturePct, cal), 30);
      return soilPercentFromRaw(raw, cal);
    });
  }

  async readLevelCm(): Promise<number> {
    return this.#faulted('waterLevel', () => {
      const m = this.#now();
      const distanceCm = m.tankDepthCm - m.state.tankLevelCm + gaussian(this.#noise, 0.3);
      const echoUs = Math.round(echoUsFromDistanceCm(Math.max(2, distanceCm)));
      if (echoUs >= HCSR04_NO_ECHO_US) throw new SensorReadError('waterLevel', 'no echo within 38 ms');
      return waterLevelCm(m.tankDepthCm, distanceCmFromEchoUs(echoUs));
    });
  }

  #adcCounts(rawExact: number, noiseCounts: number): number {
    return clamp(Math.round(rawExact + gaussian(this.#noise, noiseCounts)), 0, ADS1115_MAX_COUNT);
  }

  #faulted<T extends number | ClimateReading>(
    sensor: SensorName,
    read: () => T,
    fromStuckValue: (value: number, last: T | undefined) => T = (value) => value as T,
  ): T {
    const fault = this.#faults.get(sensor);
    if (!fault) return read();
    if (fault.kind === 'silent') throw new SensorReadError(sensor, 'no response (simulated fault)');
    let stuck = this.#stuck.get(sensor) as T | undefined;
    if (stuck === undefined) {
      stuck = fault.value === undefined ? read() : fromStuckValue(fault.value, this.#tryRead(read));
      this.#stuck.set(sensor, stuck);
    }
    return stuck;
  }

  #tryRead<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch {
      return undefined;
    }
  }
}
