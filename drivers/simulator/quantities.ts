import type { QuantityKey } from '../../common/catalogue.ts';
import type { GreenhouseState } from './model.ts';
import { clamp } from './model.ts';

const DAY_MS = 24 * 3600 * 1000;
/** Outdoor CO2 (NOAA global mean, 2025: about 425 ppm). */
const OUTSIDE_CO2_PPM = 425;

/**
 * The true value of every quantity in the simulated greenhouse. Temperature, humidity, light, soil and
 * tank come from the physical model; the quantities it does not integrate are modelled plainly from
 * its state, enough for charts and alerts to behave as a grower would expect:
 * - CO2: plants draw it down in light (to about 275 ppm in full sun with the house closed, the depletion
 *   growers measure in a shut house; never near the plants' compensation point) and respiration raises
 *   it at night (+300 ppm); ventilation (fan, cooling, open window) pulls it back to outside air.
 * - Pressure: 1013 hPa with a slow ±6 hPa weather swing (a 3-day period).
 * - Root zone: the substrate follows the air slowly, about halfway between the air and 18 °C.
 */
export function trueQuantities(state: GreenhouseState): Record<QuantityKey, number> {
  const ventilated = state.activeEffects.some((e) => e === 'fan' || e === 'cooling' || e === 'window');
  const photosynthesis = clamp(state.lux / 40_000, 0, 1);
  const night = state.lux < 50 ? 1 : 0;
  const offsetPpm = (night * 300 - photosynthesis * 150) * (ventilated ? 0.3 : 1);
  return {
    temperatureC: state.insideTemperatureC,
    humidityPct: state.insideHumidityPct,
    lightLux: state.lux,
    soilMoisturePct: state.soilMoisturePct,
    waterLevelCm: state.tankLevelCm,
    co2Ppm: OUTSIDE_CO2_PPM + offsetPpm,
    pressureHpa: 1013.25 + 6 * Math.sin((2 * Math.PI * state.timeMs) / (3 * DAY_MS)),
    rootTemperatureC: 0.5 * state.insideTemperatureC + 0.5 * 18,
  };
}
