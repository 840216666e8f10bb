import type { Clock } from './clock.ts';

/*
 * The wiring the server passes in. Same shapes as server/config/schema.ts (config.sensors,
 * config.outputs, config.simulator), redeclared because drivers/ must not import from server/.
 */

export interface Dht11Options {
  pin: number;
}

export interface Ads1115Options {
  bus: number;
  address: number;
  ldrChannel: number;
  soilChannel: number;
  /** Raw ADC counts of the capacitive probe in dry air and in water. */
  soilDryRaw: number;
  soilWetRaw: number;
  /** Points [raw, lux], interpolated in log space. */
  lightCurve: ReadonlyArray<readonly [number, number]>;
}

export interface Hcsr04Options {
  triggerPin: number;
  echoPin: number;
  /** Distance from the sensor to the tank bottom: water level = depth - measured distance. */
  tankDepthCm: number;
}

export interface SensorsOptions {
  dht11: Dht11Options;
  ads1115: Ads1115Options;
  hcsr04: Hcsr04Options;
}

export type DeviceType = 'FAN' | 'WATER_PUMP' | 'LED_LIGHT' | 'HEATER' | 'COOLING_SYSTEM' | 'SERVO';

export interface OutputOptions {
  outputId: string;
  kind: 'relay' | 'servo';
  /** BCM GPIO number. */
  pin: number;
  activeLow: boolean;
  openPulseUs: number;
  closedPulseUs: number;
  /** The kind of device the output is wired to drive (the simulator's physical effect follows it). */
  type?: DeviceType;
  device?: { deviceId: string; deviceName: string; deviceType: DeviceType; powerW: number };
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Log = (level: LogLevel, msg: string, obj?: Record<string, unknown>) => void;

export interface SimulatorOptions {
  seed: number;
  /** Informational: the model starts at clock.now(); build the clock from startAt. */
  startAt?: string;
}

export interface HardwareOptions {
  mode: 'simulator' | 'raspberry-pi';
  clock: Clock;
  sensors: SensorsOptions;
  outputs: ReadonlyArray<OutputOptions>;
  simulator: SimulatorOptions;
  log?: Log;
}

export const noLog: Log = () => {};
