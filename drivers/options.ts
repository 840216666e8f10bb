import type { Clock } from '../common/clock.ts';

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
  /** Every configured sensor instance (config `sensors.instances`, or the legacy keys as instances). */
  sensors: readonly SensorInstanceOptions[];
  outputs: ReadonlyArray<OutputOptions>;
  simulator: SimulatorOptions;
  log?: Log;
}

export const noLog: Log = () => {};

/*
 * One configured sensor instance (config `sensors.instances`), by kind. Same shape as
 * server/config/sensor-instances.ts, redeclared because drivers/ must not import from server/.
 */
interface InstanceBase {
  /** Unique among the instances: `[a-z0-9_-]`, e.g. `air-north`. */
  sensorId: string;
  name: string;
}

/** A DHT11 or DHT22 / AM2302 on one GPIO pin (single-wire protocol, timed by node-dht-sensor). */
export interface DhtInstanceOptions extends InstanceBase {
  kind: 'DHT11' | 'DHT22';
  pin: number;
}

/** An I2C sensor: SHT3x (0x44/0x45), SHT4x (0x44-0x46), BME280 (0x76/0x77), SCD4x (0x62). */
export interface I2cInstanceOptions extends InstanceBase {
  kind: 'SHT3X' | 'SHT4X' | 'BME280' | 'SCD4X';
  bus: number;
  address: number;
}

/** A DS18B20 on the kernel's 1-Wire bus: /sys/bus/w1/devices/<w1Id>/ (`28-` and 12 hex digits). */
export interface Ds18b20InstanceOptions extends InstanceBase {
  kind: 'DS18B20';
  w1Id: string;
}

export interface AdsLdrInstanceOptions extends InstanceBase {
  kind: 'ADS1115_LDR';
  bus: number;
  address: number;
  channel: number;
  /** Points [raw, lux], interpolated in log space. */
  lightCurve: ReadonlyArray<readonly [number, number]>;
}

export interface AdsSoilInstanceOptions extends InstanceBase {
  kind: 'ADS1115_SOIL';
  bus: number;
  address: number;
  channel: number;
  /** Raw ADC counts of the capacitive probe in dry air and in water. */
  dryRaw: number;
  wetRaw: number;
}

export interface Hcsr04InstanceOptions extends InstanceBase {
  kind: 'HCSR04';
  triggerPin: number;
  echoPin: number;
  tankDepthCm: number;
}

export type SensorInstanceOptions =
  | DhtInstanceOptions
  | I2cInstanceOptions
  | Ds18b20InstanceOptions
  | AdsLdrInstanceOptions
  | AdsSoilInstanceOptions
  | Hcsr04InstanceOptions;
