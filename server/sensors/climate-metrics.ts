/*
 * Air vapour-pressure deficit and dew point from a DHT11's temperature and relative humidity, with the
 * Magnus formula and the constants of Alduchov & Eskridge (1996), as docs/decisions.md fixes them:
 * saturation vapour pressure es(T) = 0.61094 · exp(17.625·T / (T + 243.04)) kPa.
 * With the DHT11's ±2 °C and ±5 %RH, VPD is uncertain by about ±0.3 kPa: the dashboard says so.
 */
const A = 17.625;
const B_C = 243.04;
const ES0_KPA = 0.61094;

export function saturationVapourPressureKpa(temperatureC: number): number {
  return ES0_KPA * Math.exp((A * temperatureC) / (temperatureC + B_C));
}

/** Air VPD in kPa (leaf temperature taken equal to air temperature, as a single air sensor must). */
export function vpdKpa(temperatureC: number, humidityPct: number): number {
  return saturationVapourPressureKpa(temperatureC) * (1 - humidityPct / 100);
}

/** Dew point in °C; null at 0 %RH, where it is undefined. */
export function dewPointC(temperatureC: number, humidityPct: number): number | null {
  if (!(humidityPct > 0)) return null;
  const gamma = Math.log(humidityPct / 100) + (A * temperatureC) / (B_C + temperatureC);
  return (B_C * gamma) / (A - gamma);
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The derived values a DHT11 reading carries on the wire (VPD to 0.01 kPa, dew point to 0.1 °C). */
export function climateMetrics(temperatureC: number | null | undefined, humidityPct: number | null | undefined): { vpdKpa?: number; dewPointC?: number } {
  if (typeof temperatureC !== 'number' || typeof humidityPct !== 'number') return {};
  const dew = dewPointC(temperatureC, humidityPct);
  return {
    vpdKpa: round(Math.max(0, vpdKpa(temperatureC, humidityPct)), 2),
    ...(dew === null ? {} : { dewPointC: round(dew, 1) }),
  };
}

/**
 * How far VPD can be off when temperature is off by up to ±accuracyC and humidity by ±accuracyPct: the
 * worst case, |∂VPD/∂T|·ΔT + |∂VPD/∂RH|·ΔRH, to 0.01 kPa. With a DHT11 (±2 °C, ±5 %RH) at 25 °C and
 * 60 % this is about ±0.3 kPa; with an SHT4x (±0.2 °C, ±1.8 %RH) about ±0.07 kPa.
 */
export function vpdUncertaintyKpa(temperatureC: number, humidityPct: number, accuracyC: number, accuracyPct: number): number {
  const es = saturationVapourPressureKpa(temperatureC);
  const desDt = (es * A * B_C) / (temperatureC + B_C) ** 2;
  const dT = desDt * (1 - humidityPct / 100) * accuracyC;
  const dRh = (es * accuracyPct) / 100;
  return round(dT + dRh, 2);
}
