import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../common/clock.ts';
import { noLog, type Log, type OutputOptions, type SensorInstanceOptions } from '../options.ts';
import type { DriverStatus, Hardware, SwitchOutput } from '../types.ts';
import { isRaspberryPi5, readBoardModel } from './board.ts';
import { lookUpGpioBase } from './gpio-base.ts';
import { openSensorInstances } from './sensor-instances.ts';
import { importNative, type Ads1x15Constructor, type DhtModule, type I2cBusModule, type OnoffModule, type PigpioModule } from './native.ts';
import { W1_DEVICES_ROOT } from './ds18b20.ts';
import { RelayOutput } from './relay.ts';
import type { ChardevRelays, GpiodTools } from './relay-chardev.ts';
import { ServoOutput } from './servo.ts';

/** Everything that touches the machine, injectable so tests run on fakes of the native packages. */
export interface RaspberryPiDeps {
  loadOnoff(): Promise<OnoffModule>;
  loadPigpio(): Promise<PigpioModule>;
  loadDht(): Promise<DhtModule>;
  loadAds1x15(): Promise<Ads1x15Constructor>;
  readBoardModel(): Promise<string | null>;
  /** /sys/class/gpio, or a temp dir in tests. */
  gpioSysfsRoot: string;
  /** i2c-bus, for the I2C sensor kinds (default: the real package, loaded on first use). */
  loadI2c?(): Promise<I2cBusModule>;
  /** /sys/bus/w1/devices, for DS18B20s (default: the kernel's). */
  w1DevicesRoot?: string;
  /** Debian's gpiod tools, for relays on a kernel without sysfs GPIO (default: the real ones). */
  gpiodTools?: GpiodTools;
}

const realDirect = { loadI2c: () => importNative<I2cBusModule>('i2c-bus'), w1DevicesRoot: W1_DEVICES_ROOT };

/**
 * Must run before the library initialises (first Gpio): by default the pigpio C library opens an
 * unauthenticated control socket on TCP 8888 (all interfaces) and FIFOs in /dev, through which anyone
 * on the LAN could switch the relays. The gateway uses neither.
 */
export function withoutPigpioInterfaces(pigpio: PigpioModule): PigpioModule {
  if (pigpio.configureInterfaces && pigpio.DISABLE_FIFO_IF !== undefined && pigpio.DISABLE_SOCK_IF !== undefined) {
    pigpio.configureInterfaces(pigpio.DISABLE_FIFO_IF | pigpio.DISABLE_SOCK_IF);
  }
  return pigpio;
}

export const realDeps: RaspberryPiDeps = {
  loadOnoff: () => importNative<OnoffModule>('onoff'),
  loadPigpio: async () => withoutPigpioInterfaces(await importNative<PigpioModule>('pigpio')),
  loadDht: () => importNative<DhtModule>('node-dht-sensor'),
  loadAds1x15: () => importNative<Ads1x15Constructor>('ads1x15'),
  readBoardModel: () => readBoardModel(),
  gpioSysfsRoot: '/sys/class/gpio',
};

export interface RaspberryPiHardwareOptions {
  clock: Clock;
  sensors: readonly SensorInstanceOptions[];
  outputs: ReadonlyArray<OutputOptions>;
  log?: Log;
}

const PI5_REASON = 'Raspberry Pi 5: the pigpio C library and node-dht-sensor (bcm2835) cannot drive its RP1 GPIO chip';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Opens every driver it can. Outputs come first and are driven to their safe state before any sensor
 * is touched (active-low boards must not click on at start). A package that fails to load, or a board
 * it cannot drive, leaves that driver null and says why in status(); the rest still runs.
 */
export async function createRaspberryPiHardware(
  options: RaspberryPiHardwareOptions,
  deps: RaspberryPiDeps = realDeps,
): Promise<Hardware> {
  const log = options.log ?? noLog;
  const statuses: DriverStatus[] = [];
  const ok = (name: string) => statuses.push({ name, available: true, reason: null });
  // Drivers whose state changes while the gateway runs (a sensor that comes back).
  const dynamicStatus: Array<() => DriverStatus> = [];
  const unavailable = (name: string, reason: string) => {
    statuses.push({ name, available: false, reason });
    log('warn', `driver ${name} unavailable: ${reason}`);
  };

  const model = await deps.readBoardModel();
  const pi5 = isRaspberryPi5(model);
  log('info', 'board detected', { model });

  // --- relays: onoff with the sysfs numbers offset by the SoC chip's base where sysfs GPIO exists,
  // else the GPIO character device through a gpioset child, started here, before pigpio ---
  const outputs = new Map<string, SwitchOutput>();
  const relays: RelayOutput[] = [];
  let chardev: ChardevRelays | null = null;
  const relayOptions = options.outputs.filter((o) => o.kind === 'relay');
  const sysfsGpio = await access(join(deps.gpioSysfsRoot, 'export')).then(
    () => true,
    () => false,
  );
  if (relayOptions.length > 0 && sysfsGpio) {
    try {
      const onoff = await deps.loadOnoff();
      const gpioBase = await lookUpGpioBase(deps.gpioSysfsRoot);
      for (const o of relayOptions) {
        try {
          const relay = new RelayOutput({ onoff, outputId: o.outputId, pin: o.pin, activeLow: o.activeLow, gpioBase });
          relays.push(relay);
          outputs.set(o.outputId, relay);
        } catch (err) {
          unavailable(`output:${o.outputId}`, `GPIO ${o.pin}: ${message(err)}`);
        }
      }
      ok('relays');
    } catch (err) {
      unavailable('relays', `onoff: ${message(err)}`);
    }
  } else if (relayOptions.length > 0) {
    try {
      const { openChardevRelays } = await import('./relay-chardev.ts');
      const tools = deps.gpiodTools ?? (await import('./gpiod-tools.ts')).realGpiodTools;
      const opened = await openChardevRelays({
        tools,
        clock: options.clock,
        relays: relayOptions.map((o) => ({ outputId: o.outputId, pin: o.pin, activeLow: o.activeLow })),
        log: (line) => log('error', line),
      });
      chardev = opened;
      for (const output of opened.outputs) outputs.set(output.outputId, output);
      dynamicStatus.push(() => opened.status());
      log('info', 'relays through the GPIO character device (no sysfs GPIO in this kernel)');
    } catch (err) {
      unavailable('relays', `no sysfs GPIO, and the GPIO character device: ${message(err)}`);
    }
  }

  // --- pigpio: servo and HC-SR04; never even loaded on a Pi 5 ---
  let pigpio: PigpioModule | null = null;
  if (pi5) unavailable('pigpio', PI5_REASON);
  else {
    try {
      pigpio = await deps.loadPigpio();
    } catch (err) {
      unavailable('pigpio', message(err));
    }
  }
  const servoOptions = options.outputs.filter((o) => o.kind === 'servo');
  const servos: ServoOutput[] = [];
  if (servoOptions.length > 0) {
    if (!pigpio) unavailable('servo', 'needs pigpio, which is unavailable');
    else {
      for (const o of servoOptions) {
        try {
          const servo = new ServoOutput({ pigpio, outputId: o.outputId, pin: o.pin, openPulseUs: o.openPulseUs, closedPulseUs: o.closedPulseUs, clock: options.clock });
          servos.push(servo);
          outputs.set(o.outputId, servo);
        } catch (err) {
          unavailable(`output:${o.outputId}`, `GPIO ${o.pin}: ${message(err)}`);
        }
      }
      ok('servo');
    }
  }

  async function safeState(): Promise<void> {
    const failures: string[] = [];
    for (const output of outputs.values()) {
      try {
        await output.set(false);
      } catch (err) {
        failures.push(`${output.outputId}: ${message(err)}`);
      }
    }
    if (failures.length) throw new Error(`could not drive outputs to their safe state: ${failures.join('; ')}`);
  }
  await safeState();

  // --- sensors: one driver per configured instance ---
  const opened = await openSensorInstances(options.sensors, {
    clock: options.clock,
    log,
    boardRefusal: pi5 ? PI5_REASON : null,
    pigpio,
    direct: {
      loadDht: deps.loadDht,
      loadI2c: deps.loadI2c ?? realDirect.loadI2c,
      w1DevicesRoot: deps.w1DevicesRoot ?? realDirect.w1DevicesRoot,
    },
    loadAds1x15: deps.loadAds1x15,
    ok,
    unavailable,
  });
  dynamicStatus.push(...opened.dynamicStatus);

  return {
    sensors: opened.sensors,
    outputs,
    status: () => [...statuses.map((s) => ({ ...s })), ...dynamicStatus.map((status) => status())],
    safeState,
    async close() {
      await safeState().catch((err) => log('error', message(err)));
      for (const relay of relays) relay.close();
      chardev?.close();
      await opened.close();
      for (const servo of servos) servo.close();
      pigpio?.terminate?.();
    },
  };
}
