import { SensorReadError, type ClimateReading } from '../types.ts';

/*
 * DHT22 / AM2302 (Aosong "AM2302 Digital-output relative humidity & temperature sensor/module",
 * "Technical Specification"): 0-99.9 %RH and -40..80 °C at a resolution of 0.1; sensing period 2 s,
 * so it must not be read more often than every 2 s.
 */
export const DHT22_TEMPERATURE_RANGE_C = { min: -40, max: 80 } as const;
/**
 * As for the DHT11 (dht11-convert.ts): the physically possible range, with 0 %RH refused because a
 * greenhouse never gets there and a frame of zero bits passes the frame's checksum (0 + 0 + 0 + 0 = 0).
 */
export const DHT22_HUMIDITY_RANGE_PCT = { min: 1, max: 100 } as const;
export const DHT22_MIN_INTERVAL_MS = 2000;
/** The datasheet's resolution: one decimal for both values. */
const RESOLUTION = 10;

/**
 * node-dht-sensor decodes the 40-bit frame in C floats (value / 10.0 as a float32), so 65.2 %RH
 * arrives as 65.19999694824219: round back to the sensor's 0.1 resolution, then check the range.
 */
export function validateDht22(temperatureC: number, humidityPct: number, sensor = 'DHT22'): ClimateReading {
  if (!Number.isFinite(temperatureC) || !Number.isFinite(humidityPct)) {
    throw new SensorReadError(sensor, `non-numeric DHT22 answer (${temperatureC} °C, ${humidityPct} %RH)`);
  }
  const t = Math.round(temperatureC * RESOLUTION) / RESOLUTION;
  const h = Math.round(humidityPct * RESOLUTION) / RESOLUTION;
  const tr = DHT22_TEMPERATURE_RANGE_C;
  const hr = DHT22_HUMIDITY_RANGE_PCT;
  if (t < tr.min || t > tr.max) throw new SensorReadError(sensor, `temperature ${t} °C outside DHT22 range ${tr.min}..${tr.max} °C`);
  if (h < hr.min || h > hr.max) throw new SensorReadError(sensor, `humidity ${h} %RH outside DHT22 range ${hr.min}..${hr.max} %RH`);
  return { temperatureC: t, humidityPct: h };
}
