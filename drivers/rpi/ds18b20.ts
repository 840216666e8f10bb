import { access, readFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { SerialQueue } from '../../common/delay.ts';
import { SensorReadError } from '../types.ts';
import { checkDs18b20Id, decodeW1Slave } from './ds18b20-convert.ts';

export interface Ds18b20Options {
  /** The kernel's name of the probe, `28-` and 12 hex digits. */
  id: string;
  /** /sys/bus/w1/devices, or a temp dir in tests. */
  devicesRoot?: string;
  /**
   * Shared by every DS18B20 of a gateway: a read of w1_slave holds a libuv pool thread through the
   * 750 ms conversion, and the kernel serialises the bus anyway, so one read at a time keeps the other
   * pool threads (SQLite, DHT) free.
   */
  queue?: SerialQueue;
  /** Names the sensor in read errors (its sensorId). */
  sensor?: string;
}

export const W1_DEVICES_ROOT = '/sys/bus/w1/devices';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * DS18B20 on the kernel's 1-Wire bus (w1-gpio and w1-therm): reading w1_slave makes the kernel start a
 * conversion, wait for it and print the scratchpad. Asynchronous file reads keep the event loop free.
 */
export class Ds18b20Sensor {
  readonly #file: string;
  readonly #queue: SerialQueue;
  readonly sensor: string;
  readonly id: string;

  private constructor(id: string, file: string, queue: SerialQueue, sensor: string) {
    this.id = id;
    this.#file = file;
    this.#queue = queue;
    this.sensor = sensor;
  }

  /** The kernel lists a probe only while it answers the bus search: its file is the presence probe. */
  static async open(options: Ds18b20Options): Promise<Ds18b20Sensor> {
    const id = checkDs18b20Id(options.id);
    const root = options.devicesRoot ?? W1_DEVICES_ROOT;
    const file = join(root, id, 'w1_slave');
    try {
      await access(file, constants.R_OK);
    } catch (err) {
      throw new Error(
        `no DS18B20 ${id} on the 1-Wire bus (is dtoverlay=w1-gpio in config.txt, and is the probe listed in ${root}?): ${message(err)}`,
        { cause: err },
      );
    }
    return new Ds18b20Sensor(id, file, options.queue ?? new SerialQueue(), options.sensor ?? id);
  }

  read(): Promise<{ rootTemperatureC: number }> {
    return this.#queue.run(async () => {
      let text: string;
      try {
        text = await readFile(this.#file, 'utf8');
      } catch (err) {
        // The kernel drops a probe that stops answering its searches: the file goes away.
        throw new SensorReadError(this.sensor, `reading ${this.#file}: ${message(err)}`);
      }
      return { rootTemperatureC: decodeW1Slave(text, this.sensor) };
    });
  }
}
