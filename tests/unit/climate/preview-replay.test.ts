import { describe, expect, it } from 'vitest';
import type { ClimateProgram } from '../../../server/contract/climate.ts';
import { EMPTY_RULES, type AutomationRules, type DeviceType } from '../../../server/contract/device.ts';
import { DEFAULT_DEVICE_SETTINGS } from '../../../server/contract/settings.ts';
import { replayRules } from '../../../server/devices/rules/preview.ts';
import type { RecordedReading } from '../../../server/devices/rules/recorded-history.ts';

/** Local midnight of a June day, readings every 10 minutes over 24 hours at a steady 18.5 °C, 27 °C from 12:00 to 14:00. */
const T0 = new Date(2026, 5, 10).getTime();
const STEP = 10 * 60_000;
const air = (ms: number) => (ms >= T0 + 12 * 3_600_000 && ms < T0 + 14 * 3_600_000 ? 27 : 18.5);
const readings: RecordedReading[] = Array.from({ length: 24 * 6 }, (_, i) => ({
  sensorType: 'DHT11',
  takenAtMs: T0 + i * STEP,
  temperatureC: air(T0 + i * STEP),
  humidityPct: 60,
  lightLux: null,
  soilMoisturePct: null,
  waterLevelCm: null,
}));
const program: ClimateProgram = {
  periods: [
    { start: '07:00', heatBelowC: 20, ventAboveC: 25, rampMinutes: 0 },
    { start: '19:00', heatBelowC: 16, ventAboveC: 21, rampMinutes: 0 },
  ],
};

function replay(deviceType: DeviceType, rules: Partial<AutomationRules>) {
  return replayRules({
    device: { deviceType, powerW: 800, sensorLossAction: 'off', sensorLossDutyPct: null },
    rules: { ...EMPTY_RULES, ...rules },
    deviceSettings: { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 0, minOffSeconds: 0 },
    site: null,
    fromMs: T0,
    toMs: T0 + 24 * 3_600_000,
    initial: { on: false, sinceMs: null },
    readings,
    faults: [],
    tickGapMs: 5_000,
    climate: program,
  });
}

describe('the rule preview replays a climate program over recorded history', () => {
  it('the heater following heat runs through the day period at 18.5 °C (under 20) and not at night (over 16)', () => {
    const preview = replay('HEATER', { follow: 'heat' });
    expect(preview.timeline.slice(1).map((s) => [new Date(s.at).getHours(), s.status])).toEqual([
      [7, 'ON'],
      [12, 'OFF'],
      [14, 'ON'],
      [19, 'OFF'],
    ]);
    expect(preview.timeline[1]!.reason).toMatch(/heat below 20 °C/);
  });

  it('the roof window following vent shows its opening at noon (27 °C over 25: 50 %) and closes again', () => {
    const preview = replay('SERVO', { follow: 'vent' });
    expect(preview.timeline.slice(1).map((s) => [new Date(s.at).getHours(), s.status, /(\d+) % open/.exec(s.reason)?.[1] ?? null])).toEqual([
      [12, 'OPEN', '50'],
      [14, 'CLOSED', '0'],
    ]);
  });

  it('without the program a following device replays as it would live: nothing to follow', () => {
    const preview = replayRules({ ...{ device: { deviceType: 'HEATER', powerW: 800, sensorLossAction: 'off', sensorLossDutyPct: null } }, rules: { ...EMPTY_RULES, follow: 'heat' }, deviceSettings: DEFAULT_DEVICE_SETTINGS, site: null, fromMs: T0, toMs: T0 + 3_600_000, initial: { on: false, sinceMs: null }, readings, faults: [], tickGapMs: 5_000 });
    expect(preview.switches).toBe(0);
  });
});
