import { describe, expect, it } from 'vitest';
import { EMPTY_RULES, type AutomationRules, type DeviceType } from '../../../server/contract/device.ts';
import { STALE_AFTER_MS } from '../../../server/contract/reading.ts';
import { DEFAULT_DEVICE_SETTINGS, type DeviceSettings } from '../../../server/contract/settings.ts';
import { evaluateRules, type RuleDevice } from '../../../server/devices/rules/engine.ts';
import { snapshotOf } from '../../support/snapshots.ts';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const noMinTimes: DeviceSettings = { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 0, minOffSeconds: 0 };

function device(type: DeviceType, rules: Partial<AutomationRules>, isOn = false, sinceMs: number | null = null, sensorLossAction: 'off' | 'hold' = 'off'): RuleDevice {
  return { deviceType: type, autoMode: true, automationRules: { ...EMPTY_RULES, ...rules }, sensorLossAction, isOn, sinceMs };
}

/** Feeds a scripted series (one value a minute) through the engine, applying each decision. Returns the switch times. */
function run(type: DeviceType, rules: Partial<AutomationRules>, field: 'temperature' | 'humidity' | 'soilMoisture' | 'lightIntensity', series: number[], settings = noMinTimes) {
  const state = device(type, rules);
  const switches: Array<{ index: number; on: boolean }> = [];
  series.forEach((value, index) => {
    const nowMs = T0 + index * 60_000;
    const decision = evaluateRules({ device: state, snapshot: snapshotOf({ [field]: value }, nowMs), deviceSettings: settings, nowMs });
    if (decision.desired !== 'hold' && (decision.desired === 'on') !== state.isOn) {
      state.isOn = decision.desired === 'on';
      state.sinceMs = nowMs;
      switches.push({ index, on: state.isOn });
    }
  });
  return switches;
}

describe('rule engine: hysteresis', () => {
  it('temperatureHigh 30 with band 0.5 turns on above 30 and off only below 29.5', () => {
    const switches = run('FAN', { temperatureHigh: 30 }, 'temperature', [29, 30, 30.1, 29.8, 29.6, 29.5, 29.4, 29.9, 30]);
    expect(switches).toEqual([
      { index: 2, on: true },
      { index: 6, on: false },
    ]);
  });

  it('a noisy signal around the threshold toggles at most once per band crossing', () => {
    // Noise of ±0.3 around 30 (inside the 0.5 band), then a clear fall, then noise again.
    const noisy = [29.8, 30.2, 29.9, 30.3, 29.7, 30.1, 29.8, 30.2, 29.9, 30.1];
    const series = [...noisy, 29, 28.5, ...noisy];
    const switches = run('COOLING_SYSTEM', { temperatureHigh: 30 }, 'temperature', series);
    expect(switches).toEqual([
      { index: 1, on: true },
      { index: 10, on: false },
      { index: 13, on: true },
    ]);
  });

  it('temperatureLow turns on below the threshold and off above threshold + band (heater)', () => {
    const switches = run('HEATER', { temperatureLow: 15 }, 'temperature', [16, 15, 14.9, 15.2, 15.5, 15.6, 15.1]);
    expect(switches).toEqual([
      { index: 2, on: true },
      { index: 5, on: false },
    ]);
  });

  it('soilMoistureLow waters below the threshold until threshold + band (pump)', () => {
    const switches = run('WATER_PUMP', { soilMoistureLow: 30 }, 'soilMoisture', [35, 29, 31, 32.9, 33.1, 31]);
    expect(switches).toEqual([
      { index: 1, on: true },
      { index: 4, on: false },
    ]);
  });

  it('lightLevelLow switches the grow light with a lux band', () => {
    const switches = run('LED_LIGHT', { lightLevelLow: 500 }, 'lightIntensity', [800, 450, 520, 549, 551, 520]);
    expect(switches).toEqual([
      { index: 1, on: true },
      { index: 4, on: false },
    ]);
  });

  it('humidityHigh and humidityLow use the humidity band', () => {
    expect(run('FAN', { humidityHigh: 80 }, 'humidity', [79, 81, 78, 76.9])).toEqual([
      { index: 1, on: true },
      { index: 3, on: false },
    ]);
    expect(run('FAN', { humidityLow: 40 }, 'humidity', [41, 39, 42, 43.1])).toEqual([
      { index: 1, on: true },
      { index: 3, on: false },
    ]);
  });

  it('a servo window opens on temperatureHigh', () => {
    expect(run('SERVO', { temperatureHigh: 28 }, 'temperature', [27, 29, 27.4])).toEqual([
      { index: 1, on: true },
      { index: 2, on: false },
    ]);
  });
});

describe('rule engine: any rule met', () => {
  it('a fan with temperatureHigh and humidityHigh runs while either is met', () => {
    const nowMs = T0;
    const fan = device('FAN', { temperatureHigh: 30, humidityHigh: 80 });
    const humid = evaluateRules({ device: fan, snapshot: snapshotOf({ temperature: 25, humidity: 85 }, nowMs), deviceSettings: noMinTimes, nowMs });
    expect(humid).toMatchObject({ desired: 'on', ruleName: 'humidityHigh' });
    const fine = evaluateRules({ device: { ...fan, isOn: true }, snapshot: snapshotOf({ temperature: 25, humidity: 70 }, nowMs), deviceSettings: noMinTimes, nowMs });
    expect(fine.desired).toBe('off');
  });

  it('holds when auto mode is off or no rule is configured', () => {
    const snapshot = snapshotOf({ temperature: 40 }, T0);
    expect(evaluateRules({ device: { ...device('FAN', { temperatureHigh: 30 }), autoMode: false }, snapshot, deviceSettings: noMinTimes, nowMs: T0 }).desired).toBe('hold');
    expect(evaluateRules({ device: device('FAN', {}), snapshot, deviceSettings: noMinTimes, nowMs: T0 }).desired).toBe('hold');
  });
});

describe('rule engine: minimum on/off times', () => {
  const settings: DeviceSettings = { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 120, minOffSeconds: 300 };

  it('keeps a device on for minOnSeconds even when the rule is no longer met', () => {
    const fan = device('FAN', { temperatureHigh: 30 }, true, T0);
    const at = (s: number) => evaluateRules({ device: fan, snapshot: snapshotOf({ temperature: 20 }, T0 + s * 1000), deviceSettings: settings, nowMs: T0 + s * 1000 });
    expect(at(60)).toMatchObject({ desired: 'hold' });
    expect(at(60).reason).toContain('minimum on time');
    expect(at(120).desired).toBe('off');
  });

  it('keeps a device off for minOffSeconds', () => {
    const fan = device('FAN', { temperatureHigh: 30 }, false, T0);
    const at = (s: number) => evaluateRules({ device: fan, snapshot: snapshotOf({ temperature: 35 }, T0 + s * 1000), deviceSettings: settings, nowMs: T0 + s * 1000 });
    expect(at(299).desired).toBe('hold');
    expect(at(300).desired).toBe('on');
  });

  it('a device that never switched has no minimum time to wait', () => {
    const fan = device('FAN', { temperatureHigh: 30 });
    expect(evaluateRules({ device: fan, snapshot: snapshotOf({ temperature: 35 }, T0), deviceSettings: settings, nowMs: T0 }).desired).toBe('on');
  });
});

describe('rule engine: stale or missing data holds with sensorLossAction hold', () => {
  it('does not switch on a stale reading, in either direction', () => {
    const readAt = T0;
    const nowMs = T0 + STALE_AFTER_MS + 1;
    const off = device('FAN', { temperatureHigh: 30 }, false, null, 'hold');
    expect(evaluateRules({ device: off, snapshot: snapshotOf({ temperature: 40 }, readAt), deviceSettings: noMinTimes, nowMs }).desired).toBe('hold');
    const on = { ...off, isOn: true };
    const decision = evaluateRules({ device: on, snapshot: snapshotOf({ temperature: 10 }, readAt), deviceSettings: noMinTimes, nowMs });
    expect(decision.desired).toBe('hold');
    expect(decision.reason).toContain('no fresh reading');
  });

  it('a reading exactly STALE_AFTER_MS old still counts', () => {
    const decision = evaluateRules({ device: device('FAN', { temperatureHigh: 30 }, false, null, 'hold'), snapshot: snapshotOf({ temperature: 40 }, T0), deviceSettings: noMinTimes, nowMs: T0 + STALE_AFTER_MS });
    expect(decision.desired).toBe('on');
  });

  it('holds when a field is missing or there is no snapshot at all', () => {
    const pump = device('WATER_PUMP', { soilMoistureLow: 30 }, true, null, 'hold');
    expect(evaluateRules({ device: pump, snapshot: snapshotOf({ temperature: 20 }, T0), deviceSettings: noMinTimes, nowMs: T0 }).desired).toBe('hold');
    expect(evaluateRules({ device: pump, snapshot: null, deviceSettings: noMinTimes, nowMs: T0 }).desired).toBe('hold');
  });

  it('another fresh rule that is met still turns the device on', () => {
    const fan = device('FAN', { temperatureHigh: 30, humidityHigh: 80 }, false, null, 'hold');
    const snapshot = snapshotOf({ humidity: 90 }, T0);
    expect(evaluateRules({ device: fan, snapshot, deviceSettings: noMinTimes, nowMs: T0 })).toMatchObject({ desired: 'on', ruleName: 'humidityHigh' });
  });
});

describe('rule engine: a schedule without a synchronised clock', () => {
  const photoperiod = { schedule: { from: '00:00', to: '23:59' } };
  it('keeps the device off (at once, no minimum on time) and says why; threshold rules without a schedule still act', () => {
    const input = { snapshot: snapshotOf({ temperature: 31 }, T0), deviceSettings: DEFAULT_DEVICE_SETTINGS, nowMs: T0, clockSynchronised: false };
    expect(evaluateRules({ ...input, device: device('LED_LIGHT', photoperiod, true, T0 - 1000) })).toEqual({
      desired: 'off',
      ruleName: 'schedule',
      reason: 'clock not synchronised: schedule off until the time is set',
      source: 'rule',
    });
    expect(evaluateRules({ ...input, device: device('LED_LIGHT', photoperiod, false) }).desired).toBe('hold');
    expect(evaluateRules({ ...input, device: device('FAN', { temperatureHigh: 30 }) }).desired).toBe('on');
    expect(evaluateRules({ ...input, clockSynchronised: true, device: device('LED_LIGHT', photoperiod) }).desired).toBe('on');
  });
});
