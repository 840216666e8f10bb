import { SENSOR_KINDS } from '../../common/catalogue.ts';
import type { Clock } from '../../common/clock.ts';
import type { Log, SensorInstanceOptions } from '../options.ts';
import { SensorReadError, type DriverStatus, type QuantityValues, type SensorInstanceDriver } from '../types.ts';
import { Ads1115 } from './ads1115.ts';
import { directSensorOpener, type DirectSensorDeps } from './direct-sensors.ts';
import { Hcsr04Sensor } from './hcsr04.ts';
import type { Ads1x15Constructor, PigpioModule } from './native.ts';
import { reprobedAdsChannel } from './reprobe-ads1115.ts';
import { Reprobe } from './reprobe.ts';

export interface OpenSensorsContext {
  clock: Clock;
  log: Log;
  /** Why this board cannot run node-dht-sensor or pigpio (a Pi 5), or null. */
  boardRefusal: string | null;
  pigpio: PigpioModule | null;
  /** The DHT, I2C and 1-Wire kinds' packages and paths (direct-sensors.ts). */
  direct: Omit<DirectSensorDeps, 'clock' | 'dhtRefusal'>;
  loadAds1x15(): Promise<Ads1x15Constructor>;
  ok(name: string): void;
  unavailable(name: string, reason: string): void;
}

export interface OpenedSensors {
  sensors: SensorInstanceDriver[];
  /** Drivers whose availability changes while the gateway runs (an ADS1115 that comes back). */
  dynamicStatus: Array<() => DriverStatus>;
  close(): Promise<void>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The kinds on a bus whose chip may be missing at boot or go away (docs/hardware.md, "Hardware that
 * comes back"): probed again with back-off, their failed reads counted as bus errors. A DHT has no
 * probe (its package reads a pin), so it is not among them.
 */
const REPROBED_KINDS: ReadonlySet<SensorInstanceOptions['kind']> = new Set(['SHT3X', 'SHT4X', 'BME280', 'SCD4X', 'DS18B20']);
const I2C_KINDS: ReadonlySet<SensorInstanceOptions['kind']> = new Set(['SHT3X', 'SHT4X', 'BME280', 'SCD4X']);

/**
 * Opens one driver per configured instance. One that cannot open (package missing, chip absent, board
 * unsupported) is left out and named in the status (`sensor:<sensorId>`); the rest still run. ADS1115
 * channels on one chip share one ADC, probed again with back-off while it is missing (reprobe.ts); so
 * is each I2C and 1-Wire chip (REPROBED_KINDS): it is read from the start, fails its reads while absent
 * and joins when a probe finds it.
 */
export async function openSensorInstances(instances: readonly SensorInstanceOptions[], ctx: OpenSensorsContext): Promise<OpenedSensors> {
  const sensors: SensorInstanceDriver[] = [];
  const closers: Array<() => Promise<void>> = [];
  const dynamicStatus: OpenedSensors['dynamicStatus'] = [];
  const adcs = new Map<string, Promise<Reprobe<Ads1115>>>();
  // i2c-bus is loaded once, before the first I2C chip is probed: a package that cannot load is not
  // probed again (nothing would change until it is installed), a chip that does not answer is.
  let i2c: ReturnType<OpenSensorsContext['direct']['loadI2c']> | null = null;
  const loadI2c = () => (i2c ??= ctx.direct.loadI2c());
  const openDirect = directSensorOpener({ ...ctx.direct, loadI2c, clock: ctx.clock, dhtRefusal: ctx.boardRefusal });
  // Sound travels faster in warm air: the newest air temperature any instance read corrects the echo time.
  let airTemperatureC: number | null = null;

  const adcAt = (bus: number, address: number) => {
    const key = `${bus}:${address}`;
    let adc = adcs.get(key);
    if (!adc) {
      const name = adcs.size === 0 ? 'ads1115' : `ads1115 at 0x${address.toString(16)} on bus ${bus}`;
      adc = ctx.loadAds1x15().then(async (Ads1x15) => {
        const reprobe = new Reprobe({ name, open: () => Ads1115.open({ Ads1x15, bus, address }), close: (device) => device.close(), clock: ctx.clock, log: ctx.log });
        await reprobe.start();
        dynamicStatus.push(() => reprobe.status());
        closers.push(() => reprobe.close());
        return reprobe;
      });
      adcs.set(key, adc);
    }
    return adc;
  };

  for (const raw of instances) {
    const o = { ...raw, name: raw.name || raw.sensorId };
    const name = `sensor:${o.sensorId}`;
    try {
      let read: () => Promise<QuantityValues>;
      // ADC channels keep their newest raw count for calibration (docs/irrigation.md).
      let lastRaw: number | null = null;
      let rawOf: (() => number | null) | undefined;
      switch (o.kind) {
        case 'ADS1115_LDR': {
          const lux = reprobedAdsChannel(await adcAt(o.bus, o.address), o, (raw) => (lastRaw = raw));
          read = async () => ({ lightLux: await lux() });
          rawOf = () => lastRaw;
          break;
        }
        case 'ADS1115_SOIL': {
          const pct = reprobedAdsChannel(await adcAt(o.bus, o.address), o, (raw) => (lastRaw = raw));
          rawOf = () => lastRaw;
          read = async () => ({ soilMoisturePct: await pct() });
          break;
        }
        case 'HCSR04': {
          if (!ctx.pigpio) throw new Error(ctx.boardRefusal ?? 'needs pigpio, which is unavailable');
          const sonar = new Hcsr04Sensor({
            pigpio: ctx.pigpio, triggerPin: o.triggerPin, echoPin: o.echoPin, tankDepthCm: o.tankDepthCm, clock: ctx.clock,
            airTemperatureC: () => airTemperatureC,
          });
          read = async () => ({ waterLevelCm: await sonar.readLevelCm() });
          break;
        }
        default: {
          if (REPROBED_KINDS.has(o.kind)) {
            if (I2C_KINDS.has(o.kind)) await loadI2c();
            const chip = new Reprobe({ name, open: () => openDirect(o), close: (opened) => opened.close(), clock: ctx.clock, log: ctx.log });
            await chip.start();
            dynamicStatus.push(() => {
              const status = chip.status();
              return status.available ? status : { ...status, reason: `${o.kind}: ${status.reason}` };
            });
            closers.push(() => chip.close());
            read = () => chip.read(o.sensorId, (opened) => opened.driver.read());
            break;
          }
          const opened = await openDirect(o);
          closers.push(() => opened.close());
          read = () => opened.driver.read();
        }
      }
      sensors.push(
        instance(o, read, (values) => {
          if (typeof values.temperatureC === 'number') airTemperatureC = values.temperatureC;
        }, rawOf),
      );
      if (!REPROBED_KINDS.has(o.kind)) ctx.ok(name);
    } catch (err) {
      ctx.unavailable(name, `${o.kind}: ${message(err)}`);
    }
  }

  return {
    sensors,
    dynamicStatus,
    async close() {
      for (const close of closers) await close().catch((err) => ctx.log('warn', `closing a sensor's bus: ${message(err)}`));
    },
  };
}

/** The driver the sampler reads: every failure a SensorReadError naming the instance, never a NaN. */
function instance(
  o: SensorInstanceOptions & { name: string },
  read: () => Promise<QuantityValues>,
  onValues: (values: QuantityValues) => void,
  lastRawCount?: () => number | null,
): SensorInstanceDriver {
  const spec = SENSOR_KINDS[o.kind];
  return {
    ...(lastRawCount ? { lastRawCount } : {}),
    sensorId: o.sensorId,
    kind: o.kind,
    name: o.name,
    quantities: spec.quantities,
    retryDelaysMs: spec.retryDelaysMs,
    cacheWindowMs: spec.cacheWindowMs,
    async read() {
      let values: QuantityValues;
      try {
        values = await read();
      } catch (err) {
        throw err instanceof SensorReadError ? err : new SensorReadError(o.sensorId, message(err));
      }
      for (const [q, v] of Object.entries(values)) {
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new SensorReadError(o.sensorId, `${q} is not a number: ${String(v)}`);
      }
      onValues(values);
      return values;
    },
  };
}
