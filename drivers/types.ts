import type { QuantityKey, SensorKind } from '../common/catalogue.ts';

/**
 * What the rest of the gateway sees of the hardware. The server codes against these interfaces only;
 * the real drivers (drivers/rpi) and the simulator (drivers/simulator) both implement them.
 */

export interface ClimateReading {
  temperatureC: number;
  humidityPct: number;
}

/** DHT11. Throws SensorReadError on failure (it fails often: callers retry with back-off). */
export interface ClimateSensor {
  read(): Promise<ClimateReading>;
}

/** LDR via ADS1115. */
export interface LightSensor {
  readLux(): Promise<number>;
}

/** Capacitive probe via ADS1115, 0-100. */
export interface SoilMoistureSensor {
  readPercent(): Promise<number>;
}

/** HC-SR04 over the tank: depth - distance. */
export interface WaterLevelSensor {
  readLevelCm(): Promise<number>;
}

/** What one sensor instance measured in one read, keyed by quantity (only the kind's quantities). */
export type QuantityValues = Partial<Record<QuantityKey, number>>;

/**
 * One configured sensor (config `sensors.instances`), whatever its kind. drivers/rpi builds one per
 * instance with its kind's driver; the simulator builds one per instance over its model.
 */
export interface SensorInstanceDriver {
  readonly sensorId: string;
  readonly kind: SensorKind;
  readonly name: string;
  /** What it measures: its kind's quantities (common/catalogue.ts SENSOR_KINDS). */
  readonly quantities: readonly QuantityKey[];
  /**
   * Reads once. Rejects with SensorReadError on any failure (no answer, timeout, a bad CRC included):
   * a failed read never yields a value. The values are finite numbers in the catalogue's units.
   */
  read(): Promise<QuantityValues>;
  /** Waits before each retry within one sampling tick; empty = one attempt per tick. */
  readonly retryDelaysMs: readonly number[];
  /** An identical answer within this window of the last fresh one is a driver's cache, not a reading. */
  readonly cacheWindowMs: number;
  /**
   * ADC channels (ADS1115 LDR and soil probe): the raw count of the newest successful read, null before
   * one. Calibration from the dashboard reads it (the probe in dry air, then in water) and converts it.
   */
  readonly lastRawCount?: () => number | null;
}

export interface SwitchOutput {
  readonly outputId: string;
  readonly kind: 'relay' | 'servo';
  /** relay: on=energised; servo: on=open. Resolves once the hardware has been told. */
  set(on: boolean): Promise<void>;
  /** servo only: open part-way, 0-100 % between the closed and open pulse widths. */
  setOpenPct?(pct: number): Promise<void>;
}

export interface DriverStatus {
  name: string;
  available: boolean;
  reason: string | null;
  /** Failed transfers on the driver's bus since start (drivers that count them: drivers/rpi/reprobe.ts). */
  busErrors?: number;
}

export interface Hardware {
  /** One driver per configured sensor instance that could be opened (status() says why one is missing). */
  sensors: SensorInstanceDriver[];
  /** By outputId, every configured output that could be opened. */
  outputs: Map<string, SwitchOutput>;
  /** Which drivers are unavailable and why (e.g. Pi 5: pigpio/node-dht-sensor). */
  status(): DriverStatus[];
  /** Drives every output to its safe state (relays off, window closed). Called first thing at start and on shutdown. */
  safeState(): Promise<void>;
  close(): Promise<void>;
}

export type SensorName = 'climate' | 'light' | 'soil' | 'waterLevel';

export class SensorReadError extends Error {
  constructor(
    readonly sensor: string,
    message: string,
  ) {
    super(`${sensor}: ${message}`);
    this.name = 'SensorReadError';
  }
}
