import { SerialQueue } from '../../common/delay.ts';
import { SensorReadError } from '../types.ts';
import type { I2cBus, I2cBusModule } from './native.ts';

/** /dev/i2c-N: the Pi's header bus is 1; overlays (i2c-gpio, i2c3..6) add higher numbers. */
const MAX_BUS_NUMBER = 255;

export function hexAddress(address: number): string {
  return `0x${address.toString(16).padStart(2, '0')}`;
}

/** Throws a RangeError naming the bad value when `bus` is not a /dev/i2c-N number. */
export function checkBusNumber(chip: string, bus: number): void {
  if (!Number.isInteger(bus) || bus < 0 || bus > MAX_BUS_NUMBER) {
    throw new RangeError(`${chip} I2C bus must be an integer 0-${MAX_BUS_NUMBER}, got ${String(bus)}`);
  }
}

/** Throws a RangeError naming the bad value when `address` is not one the chip can be strapped to. */
export function checkAddress(chip: string, address: number, allowed: ReadonlyArray<number>): void {
  if (!Number.isInteger(address) || !allowed.includes(address)) {
    const shown = Number.isInteger(address) && address >= 0 ? hexAddress(address) : String(address);
    const names = allowed.map(hexAddress);
    const choices = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
    throw new RangeError(`${chip} I2C address must be ${choices}, got ${shown}`);
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * One chip at one address on an opened bus. Transactions run one at a time (a command and the read of
 * its answer must not interleave with another caller's), and every bus failure becomes a
 * SensorReadError naming the sensor, so a read fails and the next tick simply tries again.
 */
export class I2cDevice {
  readonly #bus: I2cBus;
  readonly #queue = new SerialQueue();
  readonly address: number;
  readonly sensor: string;

  private constructor(bus: I2cBus, address: number, sensor: string) {
    this.#bus = bus;
    this.address = address;
    this.sensor = sensor;
  }

  static async open(deps: { i2c: I2cBusModule; bus: number; address: number; sensor: string }): Promise<I2cDevice> {
    return new I2cDevice(await deps.i2c.openPromisified(deps.bus), deps.address, deps.sensor);
  }

  /** Runs `job` with exclusive use of the chip (command, wait, answer). */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    return this.#queue.run(job);
  }

  async write(bytes: ReadonlyArray<number>): Promise<void> {
    const buffer = Buffer.from(bytes);
    const { bytesWritten } = await this.#transfer('write', () => this.#bus.i2cWrite(this.address, buffer.length, buffer));
    if (bytesWritten !== buffer.length) throw this.#error(`wrote ${bytesWritten} of ${buffer.length} bytes`);
  }

  async read(length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.#transfer('read', () => this.#bus.i2cRead(this.address, length, buffer));
    if (bytesRead !== length) throw this.#error(`read ${bytesRead} of ${length} bytes`);
    return buffer;
  }

  async readRegisters(register: number, length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.#transfer(`read of register ${hexAddress(register)}`, () =>
      this.#bus.readI2cBlock(this.address, register, length, buffer),
    );
    if (bytesRead !== length) throw this.#error(`read ${bytesRead} of ${length} bytes from register ${hexAddress(register)}`);
    return buffer;
  }

  async writeRegister(register: number, value: number): Promise<void> {
    await this.#transfer(`write of register ${hexAddress(register)}`, () => this.#bus.writeByte(this.address, register, value));
  }

  close(): Promise<void> {
    return this.#bus.close();
  }

  async #transfer<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw this.#error(`I2C ${what} failed: ${message(err)}`);
    }
  }

  #error(text: string): SensorReadError {
    return new SensorReadError(this.sensor, `${text} (${hexAddress(this.address)})`);
  }
}

/**
 * Opens the chip and runs `probe` on it, so that an opened driver means a chip answered: i2c-bus alone
 * only opens /dev/i2c-N. On failure the bus is closed again and the error says where to look.
 */
export async function openProbed<T>(
  deps: { i2c: I2cBusModule; bus: number; address: number; sensor: string; chip: string },
  probe: (device: I2cDevice) => Promise<T>,
): Promise<{ device: I2cDevice; probed: T }> {
  let device: I2cDevice;
  try {
    device = await I2cDevice.open(deps);
  } catch (err) {
    // No /dev/i2c-N: I2C is not enabled (raspi-config, or dtparam=i2c_arm=on) or the bus number is wrong.
    throw new Error(`cannot open I2C bus ${deps.bus} for the ${deps.chip} (/dev/i2c-${deps.bus}; is I2C enabled?): ${message(err)}`, { cause: err });
  }
  try {
    return { device, probed: await probe(device) };
  } catch (err) {
    await device.close().catch(() => {});
    const where = `${hexAddress(deps.address)} on I2C bus ${deps.bus}`;
    throw new Error(`no ${deps.chip} answers at ${where} (check the wiring with i2cdetect -y ${deps.bus}): ${message(err)}`, { cause: err });
  }
}
