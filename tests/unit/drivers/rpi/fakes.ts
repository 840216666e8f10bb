import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  Ads1x15Constructor,
  Ads1x15Device,
  DhtModule,
  OnoffDirection,
  OnoffModule,
  PigpioModule,
} from '../../../../drivers/rpi/native.ts';

/** Every native call the fakes see, in order, so tests can check what happened first. */
export type OpLog = string[];

/** A fake /sys/class/gpio with the given chips; returns its root. */
export async function fakeSysfs(chips: Array<{ label: string; base: number; ngpio: number }>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sysfs-gpio-'));
  await writeFile(join(root, 'export'), '');
  for (const c of chips) {
    const dir = join(root, `gpiochip${c.base}`);
    await mkdir(dir);
    await writeFile(join(dir, 'label'), `${c.label}\n`);
    await writeFile(join(dir, 'base'), `${c.base}\n`);
    await writeFile(join(dir, 'ngpio'), `${c.ngpio}\n`);
  }
  return root;
}

export function fakeOnoff(log: OpLog): OnoffModule & { levels: Map<number, 0 | 1> } {
  const levels = new Map<number, 0 | 1>();
  class Gpio {
    constructor(
      readonly gpio: number,
      direction: OnoffDirection,
    ) {
      log.push(`onoff:export ${gpio} ${direction}`);
      if (direction === 'high') levels.set(gpio, 1);
      if (direction === 'low') levels.set(gpio, 0);
    }
    async write(value: 0 | 1) {
      log.push(`onoff:write ${this.gpio} ${value}`);
      levels.set(this.gpio, value);
    }
    unexport() {
      log.push(`onoff:unexport ${this.gpio}`);
    }
  }
  return { Gpio, levels };
}

/** How the fake echo pin answers each trigger: an echo width in µs, or null for silence. */
export type EchoScript = (pingIndex: number) => number | null;

export function fakePigpio(log: OpLog, echo: EchoScript = () => 5831): PigpioModule & { triggersAt: number[]; now: () => number } {
  let tick = 4_294_960_000; // near the 32-bit wrap, on purpose
  let pings = 0;
  const gpios = new Map<number, FakePigpioGpio>();
  const state = { triggersAt: [] as number[], now: () => 0 };
  class FakePigpioGpio extends EventEmitter {
    static INPUT = 0;
    static OUTPUT = 1;
    constructor(
      readonly gpio: number,
      opts: { mode: number; alert?: boolean },
    ) {
      super();
      log.push(`pigpio:gpio ${gpio} mode ${opts.mode}${opts.alert ? ' alert' : ''}`);
      gpios.set(gpio, this);
    }
    digitalWrite(level: 0 | 1) {
      log.push(`pigpio:write ${this.gpio} ${level}`);
    }
    servoWrite(us: number) {
      log.push(`pigpio:servo ${this.gpio} ${us}`);
    }
    trigger(lenUs: number, level: 0 | 1) {
      log.push(`pigpio:trigger ${this.gpio} ${lenUs} ${level}`);
      state.triggersAt.push(state.now());
      const widthUs = echo(pings++);
      // The echo pin is the other alert-enabled GPIO.
      const echoPin = [...gpios.values()].find((g) => g.listenerCount('alert') > 0);
      if (widthUs === null || !echoPin) return;
      tick = (tick + 500) >>> 0;
      const start = tick;
      tick = (tick + widthUs) >>> 0;
      const end = tick;
      queueMicrotask(() => {
        echoPin.emit('alert', 1, start);
        echoPin.emit('alert', 0, end);
      });
    }
  }
  return Object.assign(state, { Gpio: FakePigpioGpio, terminate: () => log.push('pigpio:terminate') }) as never;
}

/** Answers each native read from a script: values or an error. */
export function fakeDht(log: OpLog, answers: Array<{ t: number; h: number } | Error>): DhtModule {
  let i = 0;
  return {
    setMaxRetries(retries) {
      log.push(`dht:maxRetries ${retries}`);
    },
    read(type, pin, cb) {
      log.push(`dht:read ${type} ${pin}`);
      const a = answers[Math.min(i++, answers.length - 1)]!;
      queueMicrotask(() => (a instanceof Error ? cb(a, 0, 0) : cb(null, a.t, a.h)));
    },
  };
}

/**
 * millivolts per channel (or a string answer). Behaves like ads1x15 1.2.0: `busy` is set before the
 * transfer and cleared only after a successful one, so a bus error (`busErrors` of them) leaves it set
 * and the library then answers "ADC is busy..." without touching the bus. `present: false`: no chip
 * acknowledges its address (register reads throw, as i2c-bus does with EREMOTEIO).
 */
export function fakeAds(
  log: OpLog,
  mvByChannel: Record<number, number | string>,
  options: { present?: boolean; busErrors?: number } = {},
): Ads1x15Constructor {
  let busErrors = options.busErrors ?? 0;
  return class implements Ads1x15Device {
    i2c: { close(): Promise<void> } | null = null;
    busy = false;
    constructor(ic: number, address: number) {
      log.push(`ads:new ${ic} 0x${address.toString(16)}`);
    }
    async openBus(bus: number) {
      log.push(`ads:open ${bus}`);
      this.i2c = { close: async () => void log.push('ads:close') };
    }
    async i2cReadWord(register: number) {
      log.push(`ads:probe 0x${register.toString(16)}`);
      if (options.present === false) throw new Error('EREMOTEIO, Remote I/O error');
      return 0x8385; // the Config register's reset value 0x8583, bytes as they come off the bus
    }
    async readSingleEnded(o: { channel: number; pga: number; sps: number }) {
      if (this.busy) return 'ADC is busy...';
      this.busy = true;
      log.push(`ads:read ${o.channel} pga ${o.pga}`);
      if (busErrors > 0) {
        busErrors--;
        throw new Error('EIO, i/o error');
      }
      this.busy = false;
      return mvByChannel[o.channel] ?? 0;
    }
  };
}
