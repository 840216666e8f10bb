import { SENSOR_KINDS } from '../../common/catalogue.ts';
import type { Clock } from '../clock.ts';
import type { Log, SensorInstanceOptions } from '../options.ts';
import { SensorReadError, type QuantityValues, type SensorInstanceDriver } from '../types.ts';
import { Ads1115, AdsLightSensor, AdsSoilSensor } from './ads1115.ts';
import { Dht11Sensor } from './dht11.ts';
import { Hcsr04Sensor } from './hcsr04.ts';
import type { Ads1x15Constructor, DhtModule, PigpioModule } from './native.ts';

export interface OpenSensorsContext {
  clock: Clock;
  log: Log;
  /** null on a Pi 5 (its RP1 chip is driven by neither pigpio nor node-dht-sensor): why. */
  boardRefusal: string | null;
  pigpio: PigpioModule | null;
  loadDht(): Promise<DhtModule>;
  loadAds1x15(): Promise<Ads1x15Constructor>;
  ok(name: string): void;
  unavailable(name: string, reason: string): void;
}

export interface OpenedSensors {
  sensors: SensorInstanceDriver[];
  close(): Promise<void>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Wraps a driver's read so every failure is a SensorReadError naming the instance and no value is NaN. */
function instance(o: SensorInstanceOptions & { name: string }, read: () => Promise<QuantityValues>): SensorInstanceDriver {
  const spec = SENSOR_KINDS[o.kind];
  return {
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
      return values;
    },
  };
}

/**
 * Opens one driver per configured instance. One that cannot open (package missing, chip absent, board
 * unsupported) is left out and named in the status; the rest still run. ADS1115 channels on one chip
 * share one opened ADC.
 */
export async function openSensorInstances(instances: readonly SensorInstanceOptions[], ctx: OpenSensorsContext): Promise<OpenedSensors> {
  const sensors: SensorInstanceDriver[] = [];
  const adcs = new Map<string, Promise<Ads1115>>();
  const dhts: Dht11Sensor[] = [];
  let dhtModule: Promise<DhtModule> | null = null;
  const openAdc = (bus: number, address: number) => {
    const key = `${bus}:${address}`;
    let adc = adcs.get(key);
    if (!adc) {
      adc = ctx.loadAds1x15().then((Ads1x15) => Ads1115.open({ Ads1x15, bus, address }));
      adcs.set(key, adc);
    }
    return adc;
  };

  for (const raw of instances) {
    const o = { ...raw, name: raw.name || raw.sensorId };
    const name = `sensor:${o.sensorId}`;
    try {
      switch (o.kind) {
        case 'DHT11': {
          if (ctx.boardRefusal) throw new Error(ctx.boardRefusal);
          dhtModule ??= ctx.loadDht();
          const dht = new Dht11Sensor({ dht: await dhtModule, pin: o.pin, clock: ctx.clock });
          dhts.push(dht);
          sensors.push(instance(o, async () => {
            const r = await dht.read();
            return { temperatureC: r.temperatureC, humidityPct: r.humidityPct };
          }));
          break;
        }
        case 'ADS1115_LDR': {
          const light = new AdsLightSensor({ adc: await openAdc(o.bus, o.address), channel: o.channel, curve: o.lightCurve });
          sensors.push(instance(o, async () => ({ lightLux: await light.readLux() })));
          break;
        }
        case 'ADS1115_SOIL': {
          const soil = new AdsSoilSensor({ adc: await openAdc(o.bus, o.address), channel: o.channel, calibration: { dryRaw: o.dryRaw, wetRaw: o.wetRaw } });
          sensors.push(instance(o, async () => ({ soilMoisturePct: await soil.readPercent() })));
          break;
        }
        case 'HCSR04': {
          if (!ctx.pigpio) throw new Error('needs pigpio, which is unavailable');
          // Sound travels faster in warm air: the first air sensor's newest temperature corrects the echo time.
          const sonar = new Hcsr04Sensor({
            pigpio: ctx.pigpio, triggerPin: o.triggerPin, echoPin: o.echoPin, tankDepthCm: o.tankDepthCm, clock: ctx.clock,
            airTemperatureC: () => dhts[0]?.lastReading?.temperatureC ?? null,
          });
          sensors.push(instance(o, async () => ({ waterLevelCm: await sonar.readLevelCm() })));
          break;
        }
        default:
          throw new Error(`no driver for kind ${o.kind} in this build`);
      }
      ctx.ok(name);
    } catch (err) {
      ctx.unavailable(name, `${o.kind}: ${message(err)}`);
    }
  }

  return {
    sensors,
    async close() {
      for (const adc of adcs.values()) {
        await adc.then((a) => a.close()).catch((err) => ctx.log('warn', `closing the I2C bus: ${message(err)}`));
      }
    },
  };
}
