import { describe, expect, it } from 'vitest';
import { EMPTY_RULES } from '../../../server/contract/device.ts';
import { DEFAULT_DEVICE_SETTINGS } from '../../../server/contract/settings.ts';
import { replayRules, sensorsFor } from '../../../server/devices/rules/preview.ts';
import type { RecordedReading } from '../../../server/devices/rules/recorded-history.ts';

const T0 = Date.UTC(2026, 5, 1, 0, 0, 0);
const MIN = 60_000;
const settings = { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 0, minOffSeconds: 0 };

const dht = (minute: number, temperatureC: number): RecordedReading => ({
  sensorType: 'DHT11',
  takenAtMs: T0 + minute * MIN,
  temperatureC,
  humidityPct: 60,
  lightLux: null,
  soilMoisturePct: null,
  waterLevelCm: null,
});

function replay(temperatures: number[], extra: Partial<Parameters<typeof replayRules>[0]> = {}) {
  return replayRules({
    device: { deviceType: 'HEATER', powerW: 800, sensorLossAction: 'off', sensorLossDutyPct: null },
    rules: { ...EMPTY_RULES, temperatureLow: 15 },
    deviceSettings: settings,
    site: null,
    fromMs: T0,
    toMs: T0 + temperatures.length * MIN,
    initial: { on: false, sinceMs: null },
    readings: temperatures.map((t, i) => dht(i, t)),
    faults: [],
    tickGapMs: 30_000,
    ...extra,
  });
}

describe('rule preview (pure replay)', () => {
  it('switches with the same hysteresis as the live engine and sums hours on and energy', () => {
    // On below 15, off only above 15.5 (band 0.5).
    const preview = replay([16, 14.9, 15, 15.5, 15.6, 16, 14, 16]);
    expect(preview.timeline.map((s) => [(Date.parse(s.at) - T0) / MIN, s.status])).toEqual([
      [0, 'OFF'],
      [1, 'ON'],
      [4, 'OFF'],
      [6, 'ON'],
      [7, 'OFF'],
    ]);
    expect(preview.switches).toBe(4);
    expect(preview.onSeconds).toBe(4 * 60);
    expect(preview.energyWh).toBeCloseTo((240 * 800) / 3600, 1);
  });

  it('a device on at the window start counts from the start; one on at the end counts to the end', () => {
    const preview = replay([10, 10, 10], { initial: { on: true, sinceMs: T0 - MIN } });
    expect(preview.switches).toBe(0);
    expect(preview.onSeconds).toBe(180);
  });

  it('respects minimum times from the recorded state before the window', () => {
    const preview = replay([10, 10, 10, 10], { deviceSettings: { ...settings, minOffSeconds: 150 }, initial: { on: false, sinceMs: T0 - MIN } });
    // Off since one minute before the window: 150 s are reached at minute 2 (the 1.5 min mark is between ticks).
    expect(preview.timeline[1]).toMatchObject({ status: 'ON' });
    expect(Date.parse(preview.timeline[1]!.at)).toBe(T0 + 2 * MIN);
  });

  it('a recorded sensor fault switches the device off at once (fail-safe), until the sensor answers again', () => {
    const readings = [dht(0, 10), dht(1, 10), dht(5, 10)];
    const preview = replay([], {
      readings,
      toMs: T0 + 6 * MIN,
      faults: [{ sensorType: 'DHT11', fromMs: T0 + 2 * MIN + 30_000, toMs: T0 + 5 * MIN }],
    });
    expect(preview.timeline.map((s) => [(Date.parse(s.at) - T0) / 1000, s.status])).toEqual([
      [0, 'OFF'],
      [0, 'ON'],
      [150, 'OFF'],
      [300, 'ON'],
    ]);
    expect(preview.timeline[2]!.reason).toMatch(/^sensor loss fail-safe/);
  });

  it('reads only the sensors the rules need, and every sensor for a schedule alone', () => {
    expect(sensorsFor({ ...EMPTY_RULES, temperatureLow: 15 }, settings.deadband)).toEqual(['DHT11']);
    expect(sensorsFor({ ...EMPTY_RULES, soilMoistureLow: 30, lightLevelLow: 100 }, settings.deadband)).toEqual(['LDR', 'SOIL_MOISTURE']);
    expect(sensorsFor({ ...EMPTY_RULES, schedule: { from: '06:00', to: '20:00' } }, settings.deadband)).toHaveLength(4);
  });
});
