/*
 * The slices of the native packages the drivers use, typed here (node-dht-sensor and ads1x15 ship no
 * types) so tests can hand in fakes of exactly this shape. Loaded only in raspberry-pi mode.
 */

export interface DhtModule {
  read(type: 11 | 22, pin: number, callback: (err: Error | null, temperature: number, humidity: number) => void): void;
  /** How often the native read retries (450 ms apart) before failing; the library's default is 3. */
  setMaxRetries(retries: number): void;
}

export type OnoffDirection = 'in' | 'out' | 'high' | 'low';
export interface OnoffGpio {
  write(value: 0 | 1): Promise<void>;
  unexport(): void;
}
export interface OnoffModule {
  Gpio: new (gpio: number, direction: OnoffDirection) => OnoffGpio;
}

export interface PigpioGpio {
  digitalWrite(level: 0 | 1): unknown;
  trigger(pulseLenUs: number, level: 0 | 1): unknown;
  servoWrite(pulseWidthUs: number): unknown;
  on(event: 'alert', listener: (level: 0 | 1, tick: number) => void): unknown;
  removeListener(event: 'alert', listener: (level: 0 | 1, tick: number) => void): unknown;
}
export interface PigpioModule {
  Gpio: {
    new (gpio: number, options: { mode: number; alert?: boolean }): PigpioGpio;
    readonly INPUT: number;
    readonly OUTPUT: number;
  };
  terminate?(): void;
  configureInterfaces?(flags: number): void;
  readonly DISABLE_FIFO_IF?: number;
  readonly DISABLE_SOCK_IF?: number;
}

export interface Ads1x15Device {
  openBus(busNumber: number): Promise<unknown>;
  /** Millivolts; the string "ADC is busy..." when a conversion is already running. */
  readSingleEnded(opts: { channel: number; pga: number; sps: number }): Promise<number | string>;
  /** One register, bytes in the chip's order (ads1x15's i2cReadWord); throws when nothing answers. */
  i2cReadWord(register: number): Promise<number>;
  /** Set by readSingleEnded while converting, and left set when its I2C transfer throws. */
  busy: boolean;
  i2c: { close(): Promise<void> } | null;
}
export type Ads1x15Constructor = new (ic: number, address: number) => Ads1x15Device;

/** ads1x15's chip id for the ADS1115 (its IC_ADS1115). */
export const IC_ADS1115 = 1;

/** CommonJS packages arrive under `default` when imported from ESM. */
export async function importNative<T>(name: string): Promise<T> {
  const mod = (await import(name)) as { default?: T } & T;
  return (mod.default ?? mod) as T;
}

/**
 * The slice of i2c-bus's PromisifiedBus (i2c-bus 5, `openPromisified`) the SHT3x, SHT4x, BME280 and
 * SCD4x drivers use. Each resolves once the kernel has done the transfer and rejects when no chip
 * acknowledges (EREMOTEIO) or the bus fails (EIO).
 */
export interface I2cBus {
  i2cWrite(address: number, length: number, buffer: Buffer): Promise<{ bytesWritten: number; buffer: Buffer }>;
  i2cRead(address: number, length: number, buffer: Buffer): Promise<{ bytesRead: number; buffer: Buffer }>;
  /** Register read with a repeated start (I2C block read), at most 32 bytes. */
  readI2cBlock(address: number, command: number, length: number, buffer: Buffer): Promise<{ bytesRead: number; buffer: Buffer }>;
  writeByte(address: number, command: number, byte: number): Promise<void>;
  close(): Promise<void>;
}
export interface I2cBusModule {
  openPromisified(busNumber: number): Promise<I2cBus>;
}
