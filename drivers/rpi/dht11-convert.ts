import { SensorReadError, type ClimateReading } from '../types.ts';

/*
 * DHT11 datasheet (Aosong/D-Robotics DHT11 Humidity & Temperature Sensor, v1.3, "Technical
 * Specifications"): measurement range 20-90 %RH and 0-50 °C, resolution 1 %RH and 1 °C. The sensor
 * must not be polled more than once a second (the datasheet's sampling period is >= 1 s).
 */
export const DHT11_TEMPERATURE_RANGE_C = { min: 0, max: 50 } as const;
/**
 * Accepted humidity: the physically possible range, wider than the datasheet's accurate 20-90 %RH.
 * A greenhouse sits above 90 %RH on many nights and the sensor does report up to ~95 %; rejecting
 * those as failures would raise false sensor-fault alerts exactly when condensation matters. 0 %RH is
 * impossible in a greenhouse and is what a failed frame decodes to, so it stays a failure.
 */
export const DHT11_HUMIDITY_RANGE_PCT = { min: 1, max: 100 } as const;
export const DHT11_MIN_INTERVAL_MS = 1000;
/** node-dht-sensor hands back its cached last good reading as a success for this long (lib source). */
export const DHT_LIBRARY_CACHE_MS = 3000;

/** Checks a raw native answer; garbage (NaN, the 0/0 of a failed frame, out of range) is rejected. */
export function validateDht11(temperatureC: number, humidityPct: number, sensor = 'climate'): ClimateReading {
  if (!Number.isFinite(temperatureC) || !Number.isFinite(humidityPct)) {
    throw new SensorReadError(sensor, `non-numeric DHT11 answer (${temperatureC} °C, ${humidityPct} %RH)`);
  }
  const t = DHT11_TEMPERATURE_RANGE_C;
  const h = DHT11_HUMIDITY_RANGE_PCT;
  if (temperatureC < t.min || temperatureC > t.max) {
    throw new SensorReadError(sensor, `temperature ${temperatureC} °C outside DHT11 range ${t.min}-${t.max} °C`);
  }
  if (humidityPct < h.min || humidityPct > h.max) {
    throw new SensorReadError(sensor, `humidity ${humidityPct} %RH outside DHT11 range ${h.min}-${h.max} %RH`);
  }
  return { temperatureC, humidityPct };
}

/**
 * True when an answer may be the library's cache of the previous good reading rather than a new
 * measurement: it came within the cache window and carries exactly the same values. A real new
 * reading that happens to be identical is dropped too; the caller just retries later.
 */
export function isPossiblyCached(
  previous: { atMs: number; reading: ClimateReading } | null,
  nowMs: number,
  reading: ClimateReading,
): boolean {
  if (!previous) return false;
  return (
    nowMs - previous.atMs < DHT_LIBRARY_CACHE_MS &&
    previous.reading.temperatureC === reading.temperatureC &&
    previous.reading.humidityPct === reading.humidityPct
  );
}
