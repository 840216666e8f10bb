import { eq } from 'drizzle-orm';
import type { Clock } from '../../../common/clock.ts';
import { luxFromRaw, soilPercentFromRaw } from '../../../drivers/rpi/ads1115-convert.ts';
import type { SensorInstanceDriver } from '../../../drivers/types.ts';
import type { SensorCalibrationView } from '../../contract/calibration.ts';
import type { SensorInstanceConfig } from '../../config/sensor-instances.ts';
import type { Db } from '../../db/open.ts';
import { sensorCalibrations } from '../../db/schema.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';

type AdcConfig = Extract<SensorInstanceConfig, { kind: 'ADS1115_SOIL' | 'ADS1115_LDR' }>;
interface Stored {
  dryRaw: number | null;
  wetRaw: number | null;
  luxScale: number | null;
}

/** A reference reading more than this far from the curve is a wrong meter or a shaded LDR, not a calibration. */
const MAX_LUX_SCALE = 20;

/**
 * Calibration of the ADC sensors from the dashboard (docs/irrigation.md, "Calibration"): a soil probe's
 * raw count in dry air and in water, an LDR's factor against a reference lux reading. Stored in
 * `sensor_calibrations` over the config's values and applied from the next read on (`wrap`): stored
 * history is never rewritten. The driver's newest raw count is what the two-step screen shows live.
 */
export class CalibrationService {
  readonly #configs = new Map<string, AdcConfig>();
  readonly #drivers = new Map<string, SensorInstanceDriver>();
  readonly #stored = new Map<string, Stored>();

  constructor(private readonly deps: { db: Db; clock: Clock; instances: readonly SensorInstanceConfig[]; sensors: readonly SensorInstanceDriver[] }) {
    for (const o of deps.instances) if (o.kind === 'ADS1115_SOIL' || o.kind === 'ADS1115_LDR') this.#configs.set(o.sensorId, o);
    for (const s of deps.sensors) if (this.#configs.has(s.sensorId)) this.#drivers.set(s.sensorId, s);
    for (const row of deps.db.select().from(sensorCalibrations).all()) this.#stored.set(row.sensorId, row);
  }

  /** The drivers as the sampler reads them: ADC instances convert their raw count with the calibration in force. */
  wrap(sensors: readonly SensorInstanceDriver[]): SensorInstanceDriver[] {
    return sensors.map((sensor) => {
      const config = this.#configs.get(sensor.sensorId);
      if (!config || !sensor.lastRawCount) return sensor;
      return {
        ...sensor,
        read: async () => {
          const values = await sensor.read();
          const raw = sensor.lastRawCount!();
          const value = raw === null ? null : this.#convert(config, raw);
          if (value === null) return values;
          return config.kind === 'ADS1115_SOIL' ? { ...values, soilMoisturePct: value } : { ...values, lightLux: value };
        },
      };
    });
  }

  list(): SensorCalibrationView[] {
    return [...this.#configs.values()].map((config) => this.#view(config));
  }

  setSoil(sensorId: string, dryRaw: number, wetRaw: number): SensorCalibrationView {
    const config = this.#config(sensorId, 'ADS1115_SOIL');
    if (dryRaw === wetRaw) throw invalid(`wetRaw must differ from dryRaw (both ${dryRaw}): the probe must read differently in water and in dry air`, 'wetRaw');
    this.#save(sensorId, { dryRaw, wetRaw, luxScale: null });
    return this.#view(config);
  }

  /** Scales the config's light curve so the LDR's newest raw count reads `referenceLux`. */
  setLight(sensorId: string, referenceLux: number): SensorCalibrationView {
    const config = this.#config(sensorId, 'ADS1115_LDR') as Extract<AdcConfig, { kind: 'ADS1115_LDR' }>;
    const raw = this.#drivers.get(sensorId)?.lastRawCount?.() ?? null;
    if (raw === null) throw conflict(`${config.name} has not been read yet: wait for a reading, then calibrate`);
    const curveLux = luxFromRaw(raw, config.lightCurve);
    const scale = referenceLux / curveLux;
    if (!(curveLux > 0) || scale > MAX_LUX_SCALE || scale < 1 / MAX_LUX_SCALE) {
      throw invalid(`referenceLux ${referenceLux} is more than ${MAX_LUX_SCALE} times off the LDR's ${Math.round(curveLux)} lux: check the meter sits beside the LDR in the same light`, 'referenceLux');
    }
    this.#save(sensorId, { dryRaw: null, wetRaw: null, luxScale: scale });
    return this.#view(config);
  }

  /** Back to the config's calibration. */
  reset(sensorId: string): SensorCalibrationView {
    const config = this.#configs.get(sensorId);
    if (!config) throw notFound(`No ADC sensor '${sensorId}' to calibrate`);
    this.deps.db.delete(sensorCalibrations).where(eq(sensorCalibrations.sensorId, sensorId)).run();
    this.#stored.delete(sensorId);
    return this.#view(config);
  }

  #config(sensorId: string, kind: AdcConfig['kind']): AdcConfig {
    const config = this.#configs.get(sensorId);
    if (!config) throw notFound(`No ADC sensor '${sensorId}' to calibrate`);
    if (config.kind !== kind) throw invalid(`${sensorId} is a ${config.kind}, not a ${kind}`, 'sensorId');
    return config;
  }

  #save(sensorId: string, stored: Stored): void {
    const values = { ...stored, updatedAt: new Date(this.deps.clock.now()) };
    this.deps.db.insert(sensorCalibrations).values({ sensorId, ...values }).onConflictDoUpdate({ target: sensorCalibrations.sensorId, set: values }).run();
    this.#stored.set(sensorId, stored);
  }

  #soilCal(config: Extract<AdcConfig, { kind: 'ADS1115_SOIL' }>) {
    const s = this.#stored.get(config.sensorId);
    return s?.dryRaw != null && s.wetRaw != null ? { dryRaw: s.dryRaw, wetRaw: s.wetRaw } : { dryRaw: config.dryRaw, wetRaw: config.wetRaw };
  }

  #convert(config: AdcConfig, raw: number): number {
    if (config.kind === 'ADS1115_SOIL') return soilPercentFromRaw(raw, this.#soilCal(config));
    return luxFromRaw(raw, config.lightCurve) * (this.#stored.get(config.sensorId)?.luxScale ?? 1);
  }

  #view(config: AdcConfig): SensorCalibrationView {
    const raw = this.#drivers.get(config.sensorId)?.lastRawCount?.() ?? null;
    const stored = this.#stored.get(config.sensorId);
    const base = { sensorId: config.sensorId, name: config.name, kind: config.kind, raw, value: raw === null ? null : Math.round(this.#convert(config, raw) * 10) / 10 };
    if (config.kind === 'ADS1115_SOIL') return { ...base, ...this.#soilCal(config), calibrated: stored?.dryRaw != null };
    return { ...base, luxScale: stored?.luxScale ?? 1, calibrated: stored?.luxScale != null };
  }
}
