import { SerialQueue } from '../delay.ts';
import { SensorReadError, type LightSensor, type SoilMoistureSensor } from '../types.ts';
import { ADS1115_PGA_MV, luxFromRaw, rawFromMillivolts, soilPercentFromRaw, type LightCurve, type SoilCalibration } from './ads1115-convert.ts';
import { IC_ADS1115, type Ads1x15Constructor, type Ads1x15Device } from './native.ts';

/** 128 SPS: the datasheet's default rate, low noise, 8 ms per conversion (SBAS444D Table 7). */
const SAMPLES_PER_S = 128;

/** One ADS1115 shared by the LDR and the soil probe; conversions are serialised. */
export class Ads1115 {
  readonly #adc: Ads1x15Device;
  readonly #queue = new SerialQueue();

  private constructor(adc: Ads1x15Device) {
    this.#adc = adc;
  }

  static async open(deps: { Ads1x15: Ads1x15Constructor; bus: number; address: number }): Promise<Ads1115> {
    if (deps.address < 0x48 || deps.address > 0x4b) throw new RangeError(`ADS1115 address must be 0x48-0x4b, got 0x${deps.address.toString(16)}`);
    const adc = new deps.Ads1x15(IC_ADS1115, deps.address);
    await adc.openBus(deps.bus);
    return new Ads1115(adc);
  }

  /** Raw counts 0..32767 of a single-ended channel; `sensor` names the failure. */
  readRaw(channel: number, sensor: string): Promise<number> {
    if (!Number.isInteger(channel) || channel < 0 || channel > 3) throw new RangeError(`ADS1115 channel must be 0-3, got ${channel}`);
    return this.#queue.run(async () => {
      let millivolts: number | string;
      try {
        millivolts = await this.#adc.readSingleEnded({ channel, pga: ADS1115_PGA_MV, sps: SAMPLES_PER_S });
      } catch (err) {
        throw new SensorReadError(sensor, `ADS1115 channel ${channel}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (typeof millivolts !== 'number') throw new SensorReadError(sensor, `ADS1115 channel ${channel}: ${millivolts}`);
      return rawFromMillivolts(millivolts);
    });
  }

  async close(): Promise<void> {
    await this.#adc.i2c?.close();
  }
}

export class AdsLightSensor implements LightSensor {
  constructor(private readonly deps: { adc: Ads1115; channel: number; curve: LightCurve }) {
    luxFromRaw(0, deps.curve); // validates the curve now, not at the first read
  }

  async readLux(): Promise<number> {
    return luxFromRaw(await this.deps.adc.readRaw(this.deps.channel, 'light'), this.deps.curve);
  }
}

export class AdsSoilSensor implements SoilMoistureSensor {
  constructor(private readonly deps: { adc: Ads1115; channel: number; calibration: SoilCalibration }) {
    soilPercentFromRaw(0, deps.calibration);
  }

  async readPercent(): Promise<number> {
    return soilPercentFromRaw(await this.deps.adc.readRaw(this.deps.channel, 'soil'), this.deps.calibration);
  }
}
