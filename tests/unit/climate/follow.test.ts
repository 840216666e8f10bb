import { describe, expect, it } from 'vitest';
import { EMPTY_RULES, type AutomationRules, type DeviceType } from '../../../server/contract/device.ts';
import { DEFAULT_DEVICE_SETTINGS, type DeviceSettings } from '../../../server/contract/settings.ts';
import { stage2Problem, strandedStage2 } from '../../../server/climate/follow.ts';
import type { ClimateTargets } from '../../../server/climate/targets.ts';
import { evaluateRules, type RuleDecision } from '../../../server/devices/rules/engine.ts';
import { snapshotOf } from '../../support/snapshots.ts';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const noMinTimes: DeviceSettings = { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 0, minOffSeconds: 0 };
const targets: ClimateTargets = { heatBelowC: 18, ventAboveC: 24, humidityAbovePct: 85, period: 0, ramping: false, nextChangeMs: null, stage: null, lightsOn: null, text: 'period 1 (06:00)' };

function decide(type: DeviceType, rules: Partial<AutomationRules>, values: { temperature?: number; humidity?: number }, state: { isOn?: boolean; openPct?: number } = {}, settings = noMinTimes, nowMs = T0): RuleDecision {
  return evaluateRules({
    device: { deviceType: type, autoMode: true, automationRules: { ...EMPTY_RULES, ...rules }, isOn: state.isOn ?? false, sinceMs: null, openPct: state.openPct },
    snapshot: snapshotOf(values, nowMs),
    deviceSettings: settings,
    nowMs,
    climate: targets,
  });
}

describe('equipment following the program', () => {
  it('a heater heats below heatBelowC and lets go past it by the deadband', () => {
    expect(decide('HEATER', { follow: 'heat' }, { temperature: 17.9 })).toMatchObject({ desired: 'on', ruleName: 'climate', reason: expect.stringMatching(/heat below 18 °C/) });
    expect(decide('HEATER', { follow: 'heat' }, { temperature: 18.2 }, { isOn: true }).desired).toBe('on');
    expect(decide('HEATER', { follow: 'heat' }, { temperature: 18.5 }, { isOn: true }).desired).toBe('off');
  });

  it('stage 2 joins only once the air is stage2OffsetC under the target', () => {
    expect(decide('HEATER', { follow: 'heat', stage: 2 }, { temperature: 16.5 }).desired).toBe('off');
    expect(decide('HEATER', { follow: 'heat', stage: 2 }, { temperature: 15.9 }).desired).toBe('on');
    expect(decide('FAN', { follow: 'vent', stage: 2, stage2OffsetC: 3 }, { temperature: 26 }).desired).toBe('off');
    expect(decide('FAN', { follow: 'vent', stage: 2, stage2OffsetC: 3 }, { temperature: 27.1 }).desired).toBe('on');
  });

  it('the roof window opens in proportion: fully at proportionalBandC above ventAboveC, in 5 % steps', () => {
    expect(decide('SERVO', { follow: 'vent' }, { temperature: 23.9 })).toMatchObject({ desired: 'off', openPct: 0 });
    expect(decide('SERVO', { follow: 'vent' }, { temperature: 25 })).toMatchObject({ desired: 'on', openPct: 25 });
    expect(decide('SERVO', { follow: 'vent' }, { temperature: 26 })).toMatchObject({ desired: 'on', openPct: 50 });
    expect(decide('SERVO', { follow: 'vent' }, { temperature: 30 })).toMatchObject({ desired: 'on', openPct: 100 });
    expect(decide('SERVO', { follow: 'vent', proportionalBandC: 2 }, { temperature: 25 })).toMatchObject({ openPct: 50 });
  });

  it('a window at 50 % stays put while the wanted opening is within a step of it (no hunting)', () => {
    expect(decide('SERVO', { follow: 'vent' }, { temperature: 26.1 }, { isOn: true, openPct: 50 })).toMatchObject({ openPct: 50 });
    expect(decide('SERVO', { follow: 'vent' }, { temperature: 25.9 }, { isOn: true, openPct: 50 })).toMatchObject({ openPct: 50 });
    expect(decide('SERVO', { follow: 'vent' }, { temperature: 26.6 }, { isOn: true, openPct: 50 })).toMatchObject({ openPct: 65 });
  });

  it('the window goes to its safe position without a fresh air temperature', () => {
    const lost = (position: 'open' | 'closed') => evaluateRules({
      device: { deviceType: 'SERVO', autoMode: true, automationRules: { ...EMPTY_RULES, follow: 'vent' }, isOn: true, sinceMs: null, openPct: 40 },
      snapshot: null,
      deviceSettings: noMinTimes,
      nowMs: T0,
      climate: targets,
      windowSafePosition: position,
    });
    expect(lost('closed')).toMatchObject({ desired: 'off', openPct: 0, source: 'safety', reason: expect.stringMatching(/safe position \(closed\)/) });
    expect(lost('open')).toMatchObject({ desired: 'on', openPct: 100, source: 'safety' });
  });

  it('without targets (they failed to compute) following devices take their fail-safe; threshold rules still act', () => {
    const unavailable = (type: DeviceType, rules: Partial<AutomationRules>, over: { sensorLossAction?: 'hold'; isOn?: boolean } = {}) => evaluateRules({
      device: { deviceType: type, autoMode: true, automationRules: { ...EMPTY_RULES, ...rules }, isOn: over.isOn ?? true, sinceMs: null, openPct: 40, sensorLossAction: over.sensorLossAction },
      snapshot: snapshotOf({ temperature: 10, humidity: 90 }, T0),
      deviceSettings: noMinTimes,
      nowMs: T0,
      climate: null,
      climateUnavailable: 'climate targets unavailable',
      windowSafePosition: 'open',
    });
    expect(unavailable('HEATER', { follow: 'heat' })).toMatchObject({ desired: 'off', source: 'safety', reason: 'sensor loss fail-safe (climate targets unavailable): off until the targets return' });
    expect(unavailable('SERVO', { follow: 'vent' })).toMatchObject({ desired: 'on', openPct: 100, source: 'safety' });
    expect(unavailable('FAN', { follow: 'vent' }, { sensorLossAction: 'hold' })).toMatchObject({ desired: 'hold', reason: 'holding: climate targets unavailable' });
    expect(unavailable('FAN', { follow: 'vent', humidityHigh: 80 }, { isOn: false })).toMatchObject({ desired: 'on', ruleName: 'humidityHigh' });
  });

  it('dehumidifies above humidityAbovePct', () => {
    expect(decide('FAN', { follow: 'dehumidify' }, { humidity: 86, temperature: 20 }).desired).toBe('on');
    expect(decide('FAN', { follow: 'dehumidify' }, { humidity: 84, temperature: 20 }).desired).toBe('off');
  });

  it('time-proportional heating runs the error\'s share of each cycle, never a burst under the minimum on time', () => {
    const rules = { follow: 'heat' as const, heatingCycleMinutes: 10, proportionalBandC: 2 };
    const settings = { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 120, minOffSeconds: 60 };
    const cycleStart = Math.floor(T0 / 600_000) * 600_000;
    // 1 °C under 18 with a 2 °C band: half of each 10 minutes, from the cycle's start.
    const onAt = (minute: number, temperature: number) => decide('HEATER', rules, { temperature }, {}, settings, cycleStart + minute * 60_000).desired;
    expect([0, 2, 4.9, 5.1, 9].map((m) => onAt(m, 17))).toEqual(['on', 'on', 'on', 'off', 'off']);
    // 0.1 °C under: 5 % = 30 s, shorter than the 120 s minimum on time: not at all.
    expect(onAt(0, 17.9)).toBe('off');
    // 1.9 °C under: 95 % leaves 30 s off, under the 60 s minimum off time: the whole cycle.
    expect(onAt(9.8, 16.1)).toBe('on');
    expect(decide('HEATER', rules, { temperature: 17 }, {}, settings, cycleStart).reason).toMatch(/50 % of each 10 min/);
  });

  it('the spec\'s threshold rules still act beside the program', () => {
    expect(decide('FAN', { follow: 'vent', humidityHigh: 80 }, { temperature: 20, humidity: 90 })).toMatchObject({ desired: 'on', ruleName: 'humidityHigh' });
  });

  it('grow lights follow the grow stage\'s photoperiod, with no sensor needed, and stay off without one', () => {
    const lights = (lightsOn: boolean | null) => evaluateRules({
      device: { deviceType: 'LED_LIGHT', autoMode: true, automationRules: { ...EMPTY_RULES, follow: 'light' }, isOn: false, sinceMs: null },
      snapshot: null,
      deviceSettings: noMinTimes,
      nowMs: T0,
      climate: { ...targets, lightsOn, stage: { name: 'flowering', day: 40 } },
    });
    expect(lights(true)).toMatchObject({ desired: 'on', reason: 'climate: flowering, day 40 photoperiod, lights on' });
    expect(lights(false).desired).toBe('off');
    expect(lights(null)).toMatchObject({ desired: 'off', reason: expect.stringMatching(/no photoperiod/) });
  });

  it('a stage 2 needs a stage 1 of the same follow', () => {
    const rules = (r: Partial<AutomationRules>) => ({ ...EMPTY_RULES, ...r });
    expect(stage2Problem({ deviceId: 'fan-2', rules: rules({ follow: 'vent', stage: 2 }) }, [{ deviceId: 'fan-1', automationRules: rules({ follow: 'heat' }) }])).toMatch(/stage 1 device that follows 'vent'/);
    expect(stage2Problem({ deviceId: 'fan-2', rules: rules({ follow: 'vent', stage: 2 }) }, [{ deviceId: 'fan-1', automationRules: rules({ follow: 'vent' }) }])).toBeNull();
  });

  it('the last stage 1 may not stop following while a stage 2 depends on it', () => {
    const rules = (r: Partial<AutomationRules>) => ({ ...EMPTY_RULES, ...r });
    const all = [
      { deviceId: 'fan-1', deviceName: 'Fan 1', automationRules: rules({ follow: 'vent' }) },
      { deviceId: 'fan-2', deviceName: 'Fan 2', automationRules: rules({ follow: 'vent', stage: 2 }) },
    ];
    expect(strandedStage2({ deviceId: 'fan-1', rules: all[0]!.automationRules }, rules({ follow: null }), all)).toMatch(/Fan 2 is stage 2 of 'vent'/);
    expect(strandedStage2({ deviceId: 'fan-1', rules: all[0]!.automationRules }, rules({ follow: 'vent', temperatureHigh: 30 }), all)).toBeNull();
    const withAnother = [...all, { deviceId: 'fan-3', deviceName: 'Fan 3', automationRules: rules({ follow: 'vent' }) }];
    expect(strandedStage2({ deviceId: 'fan-1', rules: all[0]!.automationRules }, rules({ follow: null }), withAnother)).toBeNull();
  });
});
