import { SENSOR_KINDS, QUANTITIES, type QuantityKey, type Zone } from '../../common/catalogue.ts';
import type { SensorInstanceOptions } from '../options.ts';
import { SensorReadError, type QuantityValues, type SensorInstanceDriver, type SensorName } from '../types.ts';
import { validateDht11 } from '../rpi/dht11-convert.ts';
import { luxFromRaw, rawFromLux, rawFromSoilPercent, soilPercentFromRaw, ADS1115_MAX_COUNT } from '../rpi/ads1115-convert.ts';
import { distanceCmFromEchoUs, echoUsFromDistanceCm, HCSR04_NO_ECHO_US, waterLevelCm } from '../rpi/hcsr04-convert.ts';
import { clamp } from './model.ts';
import { gaussian, mulberry32, type Random } from './prng.ts';
import type { GreenhouseSimulator, SensorFault } from './simulator.ts';
import { trueQuantities } from './quantities.ts';

/** The simulator's fault switch of each zone (`POST /api/simulator/faults { sensor }` faults them all). */
export const ZONE_FAULT_SWITCH: Record<Zone, SensorName> = { DHT11: 'climate', LDR: 'light', SOIL_MOISTURE: 'soil', WATER_LEVEL: 'waterLevel' };

/** FNV-1a: a stable 32-bit hash of the sensorId, so each instance has its own noise for a given seed. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const round = (value: number, step: number) => Math.round(value / step) * step;

/**
 * One simulated sensor instance over the shared model: what it reads is the true value plus its kind's
 * datasheet accuracy as noise (σ = accuracy / 2, so about 95 % of readings fall within ±accuracy), at
 * its kind's resolution. The ADC and ultrasonic kinds go through the same conversions as on the board.
 * Deterministic for a seed: each instance draws from its own stream.
 */
export function simulatedInstance(simulator: GreenhouseSimulator, options: SensorInstanceOptions & { name: string }, seed: number): SensorInstanceDriver {
  const spec = SENSOR_KINDS[options.kind];
  const noise = mulberry32(seed ^ hash32(options.sensorId));
  const zone = QUANTITIES[spec.quantities[0]!].zone;
  let stuck: QuantityValues | null = null;
  // ADC kinds keep their newest raw count, as the board's driver does (calibration reads it).
  let lastRaw: number | null = null;
  const measure = (): QuantityValues => {
    const truth = trueQuantities(simulator.snapshot());
    return measureKind(options, truth, noise, simulator.tankDepthCm, (raw) => (lastRaw = raw));
  };
  const isAdc = options.kind === 'ADS1115_LDR' || options.kind === 'ADS1115_SOIL';
  return {
    ...(isAdc ? { lastRawCount: () => lastRaw } : {}),
    sensorId: options.sensorId,
    kind: options.kind,
    name: options.name,
    quantities: spec.quantities,
    retryDelaysMs: spec.retryDelaysMs,
    cacheWindowMs: spec.cacheWindowMs,
    async read() {
      const fault: SensorFault | null = simulator.instanceFaultOf(options.sensorId) ?? simulator.faultOf(ZONE_FAULT_SWITCH[zone]);
      if (!fault) {
        stuck = null;
        return measure();
      }
      if (fault.kind === 'silent') throw new SensorReadError(options.sensorId, 'no response (simulated fault)');
      if (!stuck) {
        stuck = measure();
        if (fault.value !== undefined) stuck[spec.quantities[0]!] = fault.value;
      }
      return { ...stuck };
    },
  };
}

function measureKind(o: SensorInstanceOptions, truth: Record<QuantityKey, number>, noise: Random, modelTankDepthCm: number, onRaw?: (raw: number) => void): QuantityValues {
  const noisy = (q: QuantityKey, step: number) => {
    const acc = (SENSOR_KINDS[o.kind].accuracy as Partial<Record<QuantityKey, { absolute: number; relative?: number }>>)[q]!;
    const sd = (acc.absolute + (acc.relative ?? 0) * Math.abs(truth[q])) / 2;
    return round(truth[q] + gaussian(noise, sd), step);
  };
  switch (o.kind) {
    case 'DHT11': {
      // 1 °C / 1 %RH resolution; its range check applies here as on the board.
      const r = validateDht11(Math.round(truth.temperatureC + gaussian(noise, 0.3)), Math.round(clamp(truth.humidityPct + gaussian(noise, 1), 0, 100)));
      return { temperatureC: r.temperatureC, humidityPct: r.humidityPct };
    }
    case 'ADS1115_LDR': {
      // Night reads as the curve's lowest point (clamped), exactly as the real LDR would.
      const raw = clamp(Math.round(rawFromLux(truth.lightLux, o.lightCurve) + gaussian(noise, 20)), 0, ADS1115_MAX_COUNT);
      onRaw?.(raw);
      return { lightLux: luxFromRaw(raw, o.lightCurve) };
    }
    case 'ADS1115_SOIL': {
      const cal = { dryRaw: o.dryRaw, wetRaw: o.wetRaw };
      const raw = clamp(Math.round(rawFromSoilPercent(truth.soilMoisturePct, cal) + gaussian(noise, 30)), 0, ADS1115_MAX_COUNT);
      onRaw?.(raw);
      return { soilMoisturePct: soilPercentFromRaw(raw, cal) };
    }
    case 'HCSR04': {
      const distanceCm = modelTankDepthCm - truth.waterLevelCm + gaussian(noise, 0.3);
      const echoUs = Math.round(echoUsFromDistanceCm(Math.max(2, distanceCm)));
      if (echoUs >= HCSR04_NO_ECHO_US) throw new SensorReadError(o.sensorId, 'no echo within 38 ms');
      return { waterLevelCm: waterLevelCm(o.tankDepthCm, distanceCmFromEchoUs(echoUs)) };
    }
    case 'DHT22':
      return { temperatureC: noisy('temperatureC', 0.1), humidityPct: clamp(noisy('humidityPct', 0.1), 0, 100) };
    case 'SHT3X':
    case 'SHT4X':
      return { temperatureC: noisy('temperatureC', 0.01), humidityPct: clamp(noisy('humidityPct', 0.01), 0, 100) };
    case 'BME280':
      return { temperatureC: noisy('temperatureC', 0.01), humidityPct: clamp(noisy('humidityPct', 0.01), 0, 100), pressureHpa: noisy('pressureHpa', 0.01) };
    case 'DS18B20':
      // 12-bit resolution: 0.0625 °C.
      return { rootTemperatureC: noisy('rootTemperatureC', 0.0625) };
    case 'SCD4X':
      return { co2Ppm: Math.max(0, noisy('co2Ppm', 1)), temperatureC: noisy('temperatureC', 0.01), humidityPct: clamp(noisy('humidityPct', 0.01), 0, 100) };
  }
}
