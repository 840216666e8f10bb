import { describe, expect, it } from 'vitest';
import { SensorReadError } from '../../../../drivers/types.ts';
import { isPossiblyCached, validateDht11 } from '../../../../drivers/rpi/dht11-convert.ts';
import {
  luxFromRaw,
  rawFromLux,
  rawFromMillivolts,
  rawFromSoilPercent,
  soilPercentFromRaw,
} from '../../../../drivers/rpi/ads1115-convert.ts';
import {
  distanceCmFromEchoUs,
  echoUsFromDistanceCm,
  median,
  waterLevelCm,
} from '../../../../drivers/rpi/hcsr04-convert.ts';
import { pulseFor } from '../../../../drivers/rpi/servo-convert.ts';
import { isRaspberryPi5 } from '../../../../drivers/rpi/board.ts';

const curve: [number, number][] = [
  [1000, 1],
  [8000, 100],
  [16000, 1000],
  [24000, 10000],
  [30000, 60000],
];

describe('DHT11 conversion', () => {
  it('accepts values inside the datasheet range', () => {
    expect(validateDht11(23, 55)).toEqual({ temperatureC: 23, humidityPct: 55 });
    expect(validateDht11(0, 20)).toEqual({ temperatureC: 0, humidityPct: 20 });
    expect(validateDht11(50, 90)).toEqual({ temperatureC: 50, humidityPct: 90 });
    // Above the datasheet's accurate range, but real: a greenhouse night near saturation.
    expect(validateDht11(18, 95)).toEqual({ temperatureC: 18, humidityPct: 95 });
  });
  it.each([
    [0, 0],
    [51, 50],
    [-1, 50],
    [25, 101],
    [NaN, 50],
    [25, Infinity],
  ])('rejects garbage %s °C / %s %%RH', (t, h) => {
    expect(() => validateDht11(t, h)).toThrow(SensorReadError);
  });
  it('flags an identical answer inside the 3 s library cache window as possibly cached', () => {
    const prev = { atMs: 10_000, reading: { temperatureC: 21, humidityPct: 60 } };
    expect(isPossiblyCached(prev, 12_000, { temperatureC: 21, humidityPct: 60 })).toBe(true);
    expect(isPossiblyCached(prev, 13_000, { temperatureC: 21, humidityPct: 60 })).toBe(false);
    expect(isPossiblyCached(prev, 12_000, { temperatureC: 22, humidityPct: 60 })).toBe(false);
    expect(isPossiblyCached(null, 12_000, { temperatureC: 21, humidityPct: 60 })).toBe(false);
  });
});

describe('ADS1115 conversion', () => {
  it('turns the millivolts of ads1x15 back into counts', () => {
    // ads1x15 formatResult for the ADS1115: mV = counts * pga / 32768
    expect(rawFromMillivolts((17500 * 4096) / 32768)).toBe(17500);
    expect(rawFromMillivolts(2187.5, 4096)).toBe(17500);
    expect(rawFromMillivolts(-3)).toBe(0);
    expect(rawFromMillivolts(99999)).toBe(32767);
    expect(() => rawFromMillivolts(Number.NaN)).toThrow(RangeError);
  });
  it('maps soil counts to percent for dry > wet (capacitive) and clamps', () => {
    const cal = { dryRaw: 17500, wetRaw: 7500 };
    expect(soilPercentFromRaw(17500, cal)).toBe(0);
    expect(soilPercentFromRaw(7500, cal)).toBe(100);
    expect(soilPercentFromRaw(12500, cal)).toBe(50);
    expect(soilPercentFromRaw(20000, cal)).toBe(0);
    expect(soilPercentFromRaw(1000, cal)).toBe(100);
  });
  it('maps soil counts for dry < wet (resistive-style probe) too', () => {
    const cal = { dryRaw: 2000, wetRaw: 22000 };
    expect(soilPercentFromRaw(7000, cal)).toBe(25);
    expect(rawFromSoilPercent(25, cal)).toBe(7000);
    expect(() => soilPercentFromRaw(1, { dryRaw: 5, wetRaw: 5 })).toThrow(/dryRaw != wetRaw/);
  });
  it('interpolates lux in log space between curve points and clamps at the ends', () => {
    expect(luxFromRaw(8000, curve)).toBeCloseTo(100, 6);
    expect(luxFromRaw(12000, curve)).toBeCloseTo(Math.sqrt(100 * 1000), 6); // geometric midpoint
    expect(luxFromRaw(0, curve)).toBe(1);
    expect(luxFromRaw(32767, curve)).toBe(60000);
    expect(luxFromRaw(12000, [...curve].reverse())).toBeCloseTo(316.23, 2); // order of points does not matter
  });
  it('inverts the light curve', () => {
    for (const lux of [1, 5, 316, 5000, 60000]) expect(luxFromRaw(rawFromLux(lux, curve), curve)).toBeCloseTo(lux, 6);
    expect(rawFromLux(0, curve)).toBe(1000);
  });
  it('rejects curves it cannot interpolate', () => {
    expect(() => luxFromRaw(5, [[1, 1]])).toThrow(/at least 2/);
    expect(() => luxFromRaw(5, [[1, 0], [2, 5]])).toThrow(/> 0/);
  });
});

describe('HC-SR04 conversion', () => {
  it('converts echo width to distance at 343 m/s', () => {
    // 5831 µs round trip at 343 m/s = 100 cm
    expect(distanceCmFromEchoUs(5831)).toBeCloseTo(100, 1);
    expect(distanceCmFromEchoUs(0)).toBe(0);
    expect(() => distanceCmFromEchoUs(-1)).toThrow(RangeError);
  });
  it('compensates for air temperature', () => {
    // 0 °C: 331.3 m/s -> 5831 µs is 96.6 cm
    expect(distanceCmFromEchoUs(5831, 0)).toBeCloseTo(96.59, 1);
    expect(distanceCmFromEchoUs(echoUsFromDistanceCm(42, 35), 35)).toBeCloseTo(42, 9);
  });
  it('gives the water level as depth minus distance, clamped', () => {
    expect(waterLevelCm(100, 30)).toBe(70);
    expect(waterLevelCm(100, 120)).toBe(0);
    expect(waterLevelCm(100, -3)).toBe(100);
  });
  it('takes the median', () => {
    expect(median([30, 99, 31])).toBe(31);
    expect(median([30, 32])).toBe(31);
  });
});

describe('servo and board', () => {
  it('picks the pulse and validates 500-2500 µs', () => {
    expect(pulseFor(true, { openPulseUs: 2000, closedPulseUs: 1000 })).toBe(2000);
    expect(pulseFor(false, { openPulseUs: 2000, closedPulseUs: 1000 })).toBe(1000);
    expect(() => pulseFor(true, { openPulseUs: 3000, closedPulseUs: 1000 })).toThrow(/openPulseUs.*3000/);
    expect(() => pulseFor(false, { openPulseUs: 2000, closedPulseUs: 499 })).toThrow(/closedPulseUs/);
  });
  it('recognises the Pi 5 family from the device-tree model', () => {
    expect(isRaspberryPi5('Raspberry Pi 5 Model B Rev 1.0')).toBe(true);
    expect(isRaspberryPi5('Raspberry Pi Compute Module 5 Rev 1.0')).toBe(true);
    expect(isRaspberryPi5('Raspberry Pi 4 Model B Rev 1.4')).toBe(false);
    expect(isRaspberryPi5(null)).toBe(false);
  });
});
