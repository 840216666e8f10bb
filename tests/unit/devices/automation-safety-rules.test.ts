import { describe, expect, it } from 'vitest';
import { EMPTY_RULES, type AutomationRules, type DeviceType } from '../../../server/contract/device.ts';
import { STALE_AFTER_MS, type SensorField } from '../../../server/contract/reading.ts';
import { DEFAULT_DEVICE_SETTINGS, type DeviceSettings } from '../../../server/contract/settings.ts';
import { evaluateRules, type RuleDevice } from '../../../server/devices/rules/engine.ts';
import { windowAt } from '../../../server/devices/rules/schedule.ts';
import { snapshotOf } from '../../support/snapshots.ts';
import { getTimes } from 'suncalc';

// Local time on purpose: schedules are in the gateway's local time, whatever zone the test runs in.
const local = (hour: number, minute = 0, day = 1) => new Date(2026, 5, day, hour, minute).getTime();
const settings: DeviceSettings = { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 30, minOffSeconds: 30 };

function device(type: DeviceType, rules: Partial<AutomationRules>, over: Partial<RuleDevice> = {}): RuleDevice {
  return { deviceType: type, autoMode: true, automationRules: { ...EMPTY_RULES, ...rules }, isOn: false, sinceMs: null, ...over };
}

describe('sensor-loss fail-safe', () => {
  const T0 = local(3);
  const heaterOn = device('HEATER', { temperatureLow: 15 }, { isOn: true, sinceMs: T0 - 1000 });

  it('a heater held on by its rule goes off at once when its sensor is declared faulted, even inside its minimum on time', () => {
    const decision = evaluateRules({
      device: heaterOn,
      snapshot: snapshotOf({ temperature: 10 }, T0),
      deviceSettings: settings,
      nowMs: T0,
      faultedFields: new Set<SensorField>(['temperature', 'humidity']),
    });
    expect(decision).toMatchObject({ desired: 'off', source: 'safety', ruleName: 'sensorLoss' });
    expect(decision.reason).toMatch(/\(air temperature sensor faulted\)/);
    expect(decision.reason).toMatch(/until fresh readings return/);
  });

  it('goes off when its reading is stale, not before', () => {
    const at = (ageMs: number) =>
      evaluateRules({ device: heaterOn, snapshot: snapshotOf({ temperature: 10 }, T0), deviceSettings: settings, nowMs: T0 + ageMs });
    expect(at(STALE_AFTER_MS)).toMatchObject({ desired: 'on', source: 'rule' });
    const stale = at(STALE_AFTER_MS + 1);
    expect(stale).toMatchObject({ desired: 'off', source: 'safety' });
    expect(stale.reason).toMatch(/stale \(5 min old\)/);
  });

  it('stays off while the input is lost, whatever another rule says, and resumes on fresh readings', () => {
    const fan = device('FAN', { temperatureHigh: 30, humidityHigh: 80 }, { isOn: false, sinceMs: T0 - 3_600_000 });
    const lost = evaluateRules({ device: fan, snapshot: snapshotOf({ humidity: 95 }, T0), deviceSettings: settings, nowMs: T0 });
    expect(lost).toMatchObject({ desired: 'off', source: 'safety' });
    const back = evaluateRules({ device: fan, snapshot: snapshotOf({ humidity: 95, temperature: 25 }, T0), deviceSettings: settings, nowMs: T0 });
    expect(back).toMatchObject({ desired: 'on', ruleName: 'humidityHigh', source: 'rule' });
  });

  it("'hold' keeps the state on a fault or stale data", () => {
    const held = device('FAN', { humidityHigh: 80 }, { isOn: true, sinceMs: T0 - 1000, sensorLossAction: 'hold' });
    const faulted = evaluateRules({ device: held, snapshot: snapshotOf({ humidity: 90 }, T0), deviceSettings: settings, nowMs: T0, faultedFields: new Set<SensorField>(['humidity']) });
    expect(faulted).toMatchObject({ desired: 'hold', source: 'rule' });
    const stale = evaluateRules({ device: held, snapshot: snapshotOf({ humidity: 90 }, T0), deviceSettings: settings, nowMs: T0 + STALE_AFTER_MS + 1 });
    expect(stale.desired).toBe('hold');
  });

  it("a heater's 'hold' is 'off': a heater never runs blind", () => {
    const held = { ...heaterOn, sensorLossAction: 'hold' as const };
    const faulted = evaluateRules({ device: held, snapshot: snapshotOf({ temperature: 10 }, T0), deviceSettings: settings, nowMs: T0, faultedFields: new Set<SensorField>(['temperature']) });
    expect(faulted).toMatchObject({ desired: 'off', source: 'safety', ruleName: 'sensorLoss' });
  });

  it('a fault of a sensor the rules do not read changes nothing', () => {
    const decision = evaluateRules({ device: heaterOn, snapshot: snapshotOf({ temperature: 10 }, T0), deviceSettings: settings, nowMs: T0, faultedFields: new Set<SensorField>(['soilMoisture']) });
    expect(decision).toMatchObject({ desired: 'on', source: 'rule' });
  });
});

describe('schedule windows', () => {
  const light = (rules: Partial<AutomationRules>, over: Partial<RuleDevice> = {}) => device('LED_LIGHT', rules, over);
  const at = (d: RuleDevice, nowMs: number, lux: number | null = null, site = null as { latitude: number; longitude: number } | null) =>
    evaluateRules({ device: d, snapshot: lux === null ? null : snapshotOf({ lightIntensity: lux }, nowMs), deviceSettings: settings, nowMs, site });

  it('a schedule alone is a photoperiod: on inside, off outside', () => {
    const photoperiod = light({ schedule: { from: '06:00', to: '20:00' } });
    expect(at(photoperiod, local(5, 59))).toMatchObject({ desired: 'off', ruleName: 'schedule' });
    expect(at(photoperiod, local(6, 0))).toMatchObject({ desired: 'on', ruleName: 'schedule', reason: 'inside schedule 06:00-20:00' });
    expect(at(photoperiod, local(19, 59)).desired).toBe('on');
    expect(at(photoperiod, local(20, 0)).reason).toBe('outside schedule 06:00-20:00');
  });

  it('a window across midnight is inside from its start to midnight and from midnight to its end', () => {
    const night = { from: '22:00', to: '06:00' };
    expect(windowAt(night, local(21, 59), null).kind).toBe('outside');
    expect(windowAt(night, local(22, 0), null).kind).toBe('inside');
    expect(windowAt(night, local(23, 59), null).kind).toBe('inside');
    expect(windowAt(night, local(0, 0, 2), null).kind).toBe('inside');
    expect(windowAt(night, local(5, 59, 2), null).kind).toBe('inside');
    expect(windowAt(night, local(6, 0, 2), null).kind).toBe('outside');
    expect(windowAt(night, local(12, 0, 2), null).kind).toBe('outside');
  });

  it('the rules act only inside the window: a lightLevelLow light no longer burns all night', () => {
    const lamp = light({ lightLevelLow: 1000, schedule: { from: '06:00', to: '20:00' } });
    // Dark at 23:00: the rule would be met, but the window is closed.
    expect(at(lamp, local(23), 2)).toMatchObject({ desired: 'off', ruleName: 'schedule' });
    expect(at(lamp, local(7), 2)).toMatchObject({ desired: 'on', ruleName: 'lightLevelLow' });
    expect(at(lamp, local(12), 30_000)).toMatchObject({ desired: 'off', ruleName: 'lightLevelLow' });
  });

  it('switching off at the end of the window respects the minimum on time', () => {
    const lamp = light({ schedule: { from: '06:00', to: '20:00' } }, { isOn: true, sinceMs: local(20, 0) - 10_000 });
    expect(at(lamp, local(20, 0)).desired).toBe('hold');
    expect(at(lamp, local(20, 0) + 20_000).desired).toBe('off');
  });

  it('follows sunrise and sunset with offsets at the site', () => {
    const site = { latitude: 52.37, longitude: 4.9 }; // Amsterdam
    const sun = getTimes(new Date(2026, 5, 1, 12), site.latitude, site.longitude);
    const sunrise = sun.sunrise!.getTime();
    const sunset = sun.sunset!.getTime();
    const lamp = light({ schedule: { from: 'sunrise+30', to: 'sunset-15' } });
    expect(at(lamp, sunrise + 29 * 60_000, null, site).desired).toBe('off');
    expect(at(lamp, sunrise + 30 * 60_000, null, site).desired).toBe('on');
    expect(at(lamp, sunset - 16 * 60_000, null, site).desired).toBe('on');
    const after = at(lamp, sunset - 15 * 60_000, null, site);
    expect(after.desired).toBe('off');
    expect(after.reason).toMatch(/^outside schedule sunrise\+30 \(\d\d:\d\d\)-sunset-15 \(\d\d:\d\d\)$/);
  });

  it('a sun time without a site, or a day without sunrise, is an empty window (off), and says why', () => {
    const lamp = light({ schedule: { from: 'sunrise', to: '20:00' } });
    expect(at(lamp, local(12)).reason).toMatch(/needs the greenhouse's site/);
    const svalbard = { latitude: 78.2, longitude: 15.6 }; // polar day in June
    const polar = at(lamp, local(12), null, svalbard);
    expect(polar.desired).toBe('off');
    expect(polar.reason).toMatch(/does not rise/);
  });
});
