import type { Random } from './prng.ts';
import { outsideHumidityPct, outsideTemperatureC, PEAK_SUN_LUX, sunFraction } from './environment.ts';

/** What an output does to the greenhouse. */
export type OutputEffect = 'heater' | 'fan' | 'cooling' | 'pump' | 'lights' | 'window';

export interface GreenhouseState {
  timeMs: number;
  insideTemperatureC: number;
  insideHumidityPct: number;
  soilMoisturePct: number;
  /** Water poured on the bed that has not reached the probe yet, in points of soil moisture. */
  infiltratingPct: number;
  tankLevelCm: number;
  /** 0 clear .. 0.9 overcast. */
  cloudCover: number;
  /** True illuminance at the sensor (sun through clouds plus grow lights). */
  lux: number;
  outsideTemperatureC: number;
  outsideHumidityPct: number;
  activeEffects: OutputEffect[];
  /** Water is condensing on the cold glazing (its temperature is under the inside dew point). */
  condensing: boolean;
}

/** Fixed integration step: results never depend on how often anyone reads. */
export const STEP_MS = 10_000;

/*
 * Rates, per second. Time constants rather than physics constants: a closed greenhouse follows the
 * outside air with about an hour's lag; a fan makes it ~10 min, an open roof window ~7 min.
 */
const K_LEAK = 1 / 3600;
const K_FAN = 1 / 600;
const K_WINDOW = 1 / 400;
/** Full sun lifts a closed house ~10 °C over outside at equilibrium. */
const SOLAR_RISE_C = 10;
/** A heater sized for ~20 °C over outside at equilibrium with the house closed. */
const HEATER_RISE_C = 20;
const LIGHTS_RISE_C = 1;
/**
 * The cooling system is an evaporative cooler (the default config's "Evaporative Cooler"): it pulls the
 * air towards a few degrees under outside and *adds* humidity, unlike the fan, which dries by bringing
 * in outside air.
 */
const COOLER_DEPRESSION_C = 6;
const K_COOLER = 1 / 500;
const COOLER_HUMIDITY_PCT = 92;
const K_COOLER_HUMIDITY = 1 / 600;
/** Grow lights at the sensor. */
const LIGHTS_LUX = 6000;
/**
 * Irrigation: the pump pours 0.2 points of soil moisture per second on the bed; the tank drains 1 % of its
 * depth per 10 s of pumping. The water reaches the probe with a delay (infiltration, time constant 30 s),
 * and the bed holds at most 4 points of standing water: poured faster than it soaks in, the rest runs
 * off (a third of a long run). So a long run wastes water and pulses with a soak between them do not.
 */
const PUMP_SOIL_PCT_PER_S = 0.2;
const INFILTRATION_TAU_S = 30;
const POND_CAP_PCT = 4;
const PUMP_TANK_FRACTION_PER_S = 0.001;
/** Soil dries ~0.5 %/h at rest, faster when hot and sunny. */
const SOIL_DRY_PCT_PER_H = 0.5;
/**
 * On a clear night the cover radiates to the cold sky and the house ends up colder than the air outside
 * (the greenhouse "temperature inversion"); clouds send the radiation back. About 3 °C under a clear sky.
 */
const CLEAR_NIGHT_LOSS_C = 3;
/**
 * The glazing sits between inside and outside temperature; where it is under the inside dew point, water
 * condenses on it and takes humidity out of the air (the 6 %-per-°C approximation used for the air too).
 */
const K_CONDENSE = 1 / 900;
/** Relative humidity at which the inside air is saturated at the glazing's temperature. */
function glazingSaturationPct(insideC: number, outsideC: number): number {
  const glazingC = (insideC + outsideC) / 2;
  return 100 * Math.exp(-0.06 * (insideC - glazingC));
}

export class GreenhouseModel {
  readonly #random: Random;
  readonly #tankDepthCm: number;
  state: Omit<GreenhouseState, 'lux' | 'outsideTemperatureC' | 'outsideHumidityPct' | 'activeEffects' | 'condensing'>;
  readonly effects = new Set<OutputEffect>();
  /** How far the roof window is open (0-1) while the 'window' effect is on: the air exchange scales with it. */
  windowOpenFraction = 1;

  constructor(opts: { startMs: number; random: Random; tankDepthCm: number }) {
    this.#random = opts.random;
    this.#tankDepthCm = opts.tankDepthCm;
    const startMs = Math.floor(opts.startMs / STEP_MS) * STEP_MS;
    this.state = {
      timeMs: startMs,
      insideTemperatureC: outsideTemperatureC(startMs) + 2,
      insideHumidityPct: 65,
      soilMoisturePct: 55,
      infiltratingPct: 0,
      tankLevelCm: 0.8 * opts.tankDepthCm,
      cloudCover: 0.2 + 0.3 * this.#random(),
    };
  }

  get tankDepthCm(): number {
    return this.#tankDepthCm;
  }

  luxAt(): number {
    const { timeMs, cloudCover } = this.state;
    const sunLux = PEAK_SUN_LUX * sunFraction(timeMs) * (1 - 0.75 * cloudCover);
    return sunLux + (this.effects.has('lights') ? LIGHTS_LUX : 0);
  }

  /** Integrates in whole steps up to `nowMs`; the partial step is left for later. */
  advanceTo(nowMs: number): void {
    // After a very long gap the house has long settled; do not spend seconds replaying months.
    const maxCatchUpMs = 2 * 24 * 3_600_000;
    if (nowMs - this.state.timeMs > maxCatchUpMs) {
      this.state.timeMs = Math.floor((nowMs - maxCatchUpMs) / STEP_MS) * STEP_MS;
    }
    while (this.state.timeMs + STEP_MS <= nowMs) this.#step(STEP_MS / 1000);
  }

  #step(dtS: number): void {
    const s = this.state;
    const on = (e: OutputEffect) => (this.effects.has(e) ? 1 : 0);
    const sun = sunFraction(s.timeMs) * (1 - 0.75 * s.cloudCover);
    const tOut = outsideTemperatureC(s.timeMs);
    const hOut = outsideHumidityPct(s.timeMs);

    const window = on('window') * this.windowOpenFraction;
    const kExchange = K_LEAK + on('fan') * K_FAN + window * K_WINDOW;
    const clearNight = sun === 0 ? 1 - s.cloudCover / 0.9 : 0;
    const dT =
      kExchange * (tOut - s.insideTemperatureC) +
      K_LEAK * (SOLAR_RISE_C * sun + HEATER_RISE_C * on('heater') + LIGHTS_RISE_C * on('lights') - CLEAR_NIGHT_LOSS_C * clearNight) +
      on('cooling') * K_COOLER * (tOut - COOLER_DEPRESSION_C - s.insideTemperatureC);

    // Outside air warmed to inside temperature holds less relative humidity (~6 % relative per °C).
    const airHumidity = hOut * Math.exp(-0.06 * (s.insideTemperatureC - tOut));
    // Plants transpire from moist soil, mostly in daylight (stomata close at night); a closed house gets humid.
    const closedHumidity = Math.min(98, airHumidity + 30 * (s.soilMoisturePct / 100) * (0.2 + 0.8 * sun));
    const dH =
      3 * K_LEAK * (closedHumidity - s.insideHumidityPct) +
      (on('fan') * K_FAN + window * K_WINDOW) * (airHumidity - s.insideHumidityPct) +
      on('cooling') * K_COOLER_HUMIDITY * (COOLER_HUMIDITY_PCT - s.insideHumidityPct) -
      K_CONDENSE * Math.max(0, s.insideHumidityPct - glazingSaturationPct(s.insideTemperatureC, tOut));

    const heatFactor = 1 + Math.max(0, s.insideTemperatureC - 20) / 10 + 3 * sun;
    const soaked = Math.min(s.infiltratingPct, (s.infiltratingPct * dtS) / INFILTRATION_TAU_S);
    const dSoil = -(SOIL_DRY_PCT_PER_H / 3600) * heatFactor * (s.soilMoisturePct / 50) + soaked / dtS;
    let poured = 0;
    let dTank = 0;
    if (on('pump') && s.tankLevelCm > 0) {
      poured = PUMP_SOIL_PCT_PER_S * dtS;
      dTank = -PUMP_TANK_FRACTION_PER_S * this.#tankDepthCm;
    }
    s.infiltratingPct = Math.min(POND_CAP_PCT, s.infiltratingPct - soaked + poured);

    s.insideTemperatureC += dT * dtS;
    s.insideHumidityPct = clamp(s.insideHumidityPct + dH * dtS, 5, 99);
    s.soilMoisturePct = clamp(s.soilMoisturePct + dSoil * dtS, 0, 100);
    s.tankLevelCm = clamp(s.tankLevelCm + dTank * dtS, 0, this.#tankDepthCm);
    // Clouds drift as a mean-reverting random walk, one draw per step (so per simulated time, not per read).
    s.cloudCover = clamp(s.cloudCover + (this.#random() - 0.5) * 0.02 + (0.3 - s.cloudCover) * 0.002, 0, 0.9);
    s.timeMs += dtS * 1000;
  }

  snapshot(): GreenhouseState {
    return {
      ...this.state,
      lux: this.luxAt(),
      outsideTemperatureC: outsideTemperatureC(this.state.timeMs),
      outsideHumidityPct: outsideHumidityPct(this.state.timeMs),
      activeEffects: [...this.effects].sort(),
      condensing: this.state.insideHumidityPct > glazingSaturationPct(this.state.insideTemperatureC, outsideTemperatureC(this.state.timeMs)),
    };
  }
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
