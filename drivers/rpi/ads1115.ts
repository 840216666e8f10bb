import { SerialQueue } from '../../common/delay.ts';
import { SensorReadError, type LightSensor, type SoilMoistureSensor } from '../types.ts';
import { ADS1115_PGA_MV, luxFromRaw, rawFromMillivolts, soilPercentFromRaw, type LightCurve, type SoilCalibration } from './ads1115-convert.ts';
import { IC_ADS1115, type Ads1x15Constructor, type Ads1x15Device } from './native.ts';

/** 128 SPS: the datasheet's default rate, low noise, 8 ms per conversion (SBAS444D Table 7). */
const SAMPLES_PER_S = 128;
/** Pointer of the Config register (SBAS444D §9.6.3), read once at open to prove a chip answers. */
const CONFIG_REGISTER = 0x01;

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
    // i2c-bus only opens /dev/i2c-N: without a transfer, "available" would not mean a chip is there.
    try {
      await adc.i2cReadWord(CONFIG_REGISTER);
    } catch (err) {
      await adc.i2c?.close().catch(() => {});
      const address = `0x${deps.address.toString(16)}`;
      throw new Error(`no ADS1115 answers at ${address} on I2C bus ${deps.bus} (check the wiring with i2cdetect -y ${deps.bus}): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
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
        // ads1x15 sets `busy` before the transfer and clears it only on success: after one bus error
        // every later read would answer "ADC is busy..." until a restart. Reads are serialised by our
        // queue, so here the flag can only be stale: clear it so the next tick reads again.
        this.#adc.busy = false;
        throw new SensorReadError(sensor, `ADS1115 channel ${channel}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (typeof millivolts !== 'number') {
        this.#adc.busy = false;
        throw new SensorReadError(sensor, `ADS1115 channel ${channel}: ${millivolts}`);
      }
      return rawFromMillivolts(millivolts);
    });
  }

  async close(): Promise<void> {
    await this.#adc.i2c?.close();
  }
}

export class AdsLightSensor implements LightSensor {
  constructor(private readonly deps: { adc: Ads1115; channel: number; curve: LightCurve; onRaw?: (raw: number) => void }) {
    luxFromRaw(0, deps.curve); // validates the curve now, not at the first read
  }

  async readLux(): Promise<number> {
    const raw = await this.deps.adc.readRaw(this.deps.channel, 'light');
    this.deps.onRaw?.(raw);
    return luxFromRaw(raw, this.deps.curve);
  }
}

export class AdsSoilSensor implements SoilMoistureSensor {
  constructor(private readonly deps: { adc: Ads1115; channel: number; calibration: SoilCalibration; onRaw?: (raw: number) => void }) {
    soilPercentFromRaw(0, deps.calibration);
  }

  async readPercent(): Promise<number> {
    const raw = await this.deps.adc.readRaw(this.deps.channel, 'soil');
    this.deps.onRaw?.(raw);
    return soilPercentFromRaw(raw, this.deps.calibration);
  }
}
