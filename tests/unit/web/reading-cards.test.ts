import { describe, expect, it } from 'vitest';
import type { SensorInstance } from '../../../server/contract/reading.ts';
import { measuredQuantities, OPTIONAL_QUANTITIES } from '../../../web/src/sensors/measured-quantities.ts';
import { formatField, readingCards } from '../../../web/src/sensors/readings-view.ts';

const instance = (quantities: SensorInstance['quantities']) => ({ quantities }) as SensorInstance;

describe('reading cards for the quantities the configured sensors measure', () => {
  it('the spec four and the tank only, when no sensor measures CO2, pressure or root temperature', () => {
    const measured = measuredQuantities([instance(['temperatureC', 'humidityPct']), instance(['waterLevelCm'])]);
    expect(readingCards(OPTIONAL_QUANTITIES, measured, true).map((c) => c.key)).toEqual(['temperature', 'humidity', 'light', 'soil', 'water']);
    expect(readingCards(OPTIONAL_QUANTITIES, measuredQuantities(undefined), false).map((c) => c.key)).toEqual(['temperature', 'humidity', 'light', 'soil']);
  });

  it('adds CO2, pressure and root temperature, in catalogue order, each from its zone', () => {
    const measured = measuredQuantities([instance(['rootTemperatureC']), instance(['co2Ppm', 'temperatureC', 'humidityPct']), instance(['pressureHpa'])]);
    const extra = readingCards(OPTIONAL_QUANTITIES, measured, true).slice(5);
    expect(extra.map((c) => [c.field, c.sensorType, c.unit])).toEqual([
      ['co2', 'DHT11', 'ppm'],
      ['pressure', 'DHT11', 'hPa'],
      ['rootTemperature', 'SOIL_MOISTURE', '°C'],
    ]);
  });

  it('formats each to its catalogue precision: CO2 whole ppm, pressure and root temperature one decimal', () => {
    expect(formatField('co2', 812.6)).toBe('813');
    expect(formatField('pressure', 1013.27)).toBe('1,013.3');
    expect(formatField('rootTemperature', 18.04)).toBe('18.0');
    expect(formatField('co2', undefined)).toBe('---');
  });
});
