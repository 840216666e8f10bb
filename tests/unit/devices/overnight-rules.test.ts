import { describe, expect, it } from 'vitest';
import { EMPTY_RULES, type AutomationRules, type Device, type DeviceType } from '../../../server/contract/device.ts';
import type { SensorField } from '../../../server/contract/reading.ts';
import { DEFAULT_DEVICE_SETTINGS, type DeviceSettings } from '../../../server/contract/settings.ts';
import { DomainError } from '../../../server/domain/errors.ts';
import { evaluateRules, type RuleDevice } from '../../../server/devices/rules/engine.ts';
import { checkOffAt } from '../../../server/devices/rules/off-at.ts';
import { replayRules } from '../../../server/devices/rules/preview.ts';
import { locksOf, type LockInput } from '../../../server/devices/safety/locks.ts';
import { budgetAvailableAtMs, onTimeInWindowMs, RunLedger } from '../../../server/devices/safety/run-ledger.ts';
import { snapshotOf } from '../../support/snapshots.ts';

// The pure parts of overnight control: the duty cycle, offAt bands, the run ledger and the locks.
const settings: DeviceSettings = { ...DEFAULT_DEVICE_SETTINGS, minOnSeconds: 0, minOffSeconds: 0 };
const T0 = Date.UTC(2026, 0, 15, 2, 0, 0); // a multiple of 10 minutes: a duty cycle starts here
const MIN = 60_000;

function device(type: DeviceType, rules: Partial<AutomationRules>, over: Partial<RuleDevice> = {}): RuleDevice {
  return { deviceType: type, autoMode: true, automationRules: { ...EMPTY_RULES, ...rules }, isOn: false, sinceMs: null, ...over };
}
const faulted = new Set<SensorField>(['temperature', 'humidity']);

describe("sensorLossAction 'duty'", () => {
  const heater = device('HEATER', { temperatureLow: 12 }, { sensorLossAction: 'duty', sensorLossDutyPct: 30 });
  const at = (nowMs: number, isOn: boolean) =>
    evaluateRules({ device: { ...heater, isOn, sinceMs: T0 - MIN }, snapshot: snapshotOf({ temperature: 8 }, T0 - MIN), deviceSettings: settings, nowMs, faultedFields: faulted });

  it('is on for the first pct % of each 10-minute cycle, off for the rest, as a safety action', () => {
    expect(at(T0, false)).toMatchObject({ desired: 'on', source: 'safety', ruleName: 'sensorLoss' });
    expect(at(T0 + 2.9 * MIN, true).desired).toBe('on');
    expect(at(T0 + 3 * MIN, true)).toMatchObject({ desired: 'off', source: 'safety' });
    expect(at(T0 + 9.9 * MIN, false).desired).toBe('off');
    expect(at(T0 + 10 * MIN, false).desired).toBe('on');
    expect(at(T0, false).reason).toMatch(/duty 30 % \(on 3 min of every 10 min\)/);
  });

  it('is replayed the same by the preview (fault intervals in, the same switches out)', () => {
    const result = replayRules({
      device: { deviceType: 'HEATER', powerW: 1000, sensorLossAction: 'duty', sensorLossDutyPct: 30 },
      rules: { ...EMPTY_RULES, temperatureLow: 12 },
      deviceSettings: settings,
      site: null,
      fromMs: T0,
      toMs: T0 + 60 * MIN,
      initial: { on: false, sinceMs: null },
      readings: Array.from({ length: 120 }, (_, i) => ({
        sensorType: 'DHT11' as const, takenAtMs: T0 + i * 30_000, temperatureC: 8, humidityPct: 80, lightLux: null, soilMoisturePct: null, waterLevelCm: null,
      })),
      faults: [{ sensorType: 'DHT11', fromMs: T0 + 5 * MIN, toMs: null }],
      tickGapMs: 15_000,
    });
    // On below 12 °C until the fault at 02:05, then 30 % of each cycle: on at 02:10, 02:20, ... 02:50.
    expect(result.onSeconds).toBeCloseTo(5 * 60 + 5 * 3 * 60, -1);
  });
});

describe('a heater needs a fresh air temperature whatever its rules', () => {
  it('a schedule-only heater goes to its sensor-loss action without a temperature', () => {
    const night = device('HEATER', { schedule: { from: '00:00', to: '23:59' } }, { isOn: true, sinceMs: T0 - MIN });
    const decision = evaluateRules({ device: night, snapshot: null, deviceSettings: settings, nowMs: T0 });
    expect(decision).toMatchObject({ desired: 'off', source: 'safety' });
    expect(decision.reason).toMatch(/air temperature/);
  });
});

describe('offAt bands', () => {
  const heater = device('HEATER', { temperatureLow: 18, offAt: { temperatureLow: 20 } });
  const at = (temperature: number, isOn: boolean) =>
    evaluateRules({ device: { ...heater, isOn, sinceMs: T0 - 10 * MIN }, snapshot: snapshotOf({ temperature }, T0), deviceSettings: settings, nowMs: T0 }).desired;

  it('heat below 18, stop at 20: holds through the band and lets go at offAt', () => {
    expect(at(17.9, false)).toBe('on');
    expect(at(19.9, true)).toBe('on');
    expect(at(20, true)).toBe('off');
    expect(at(19, false)).toBe('off');
  });

  it('a band on the wrong side is a 400 naming the field', () => {
    const wrong = (rules: Partial<AutomationRules>) => {
      try {
        checkOffAt({ ...EMPTY_RULES, ...rules });
        return null;
      } catch (err) {
        return err instanceof DomainError ? [err.kind, err.field] : err;
      }
    };
    expect(wrong({ temperatureLow: 18, offAt: { temperatureLow: 17 } })).toEqual(['invalid', 'automationRules.offAt.temperatureLow']);
    expect(wrong({ humidityHigh: 80, offAt: { humidityHigh: 85 } })).toEqual(['invalid', 'automationRules.offAt.humidityHigh']);
    expect(wrong({ temperatureLow: 18, offAt: { temperatureLow: 20, temperatureHigh: 10 } })).toBeNull();
  });
});

describe('run ledger', () => {
  it('counts on-time inside a sliding window that no off/on pattern resets', () => {
    const ledger = new RunLedger();
    // OFF/ON every 4.5 s: each run is short, the window sees them all.
    for (let i = 0; i < 6; i++) {
      ledger.record('pump', true, T0 + i * 9_000);
      ledger.record('pump', false, T0 + i * 9_000 + 4_500);
    }
    const runs = ledger.runs('pump');
    expect(onTimeInWindowMs(runs, T0 + 60_000, 60 * MIN)).toBe(27_000);
    // A 6 s budget: spent. 27 s used, so 22 s must slide out of the hour for 5 s (a useful run) to
    // be left: four whole runs and 4 s of the fifth, which started at T0 + 36 s.
    expect(budgetAvailableAtMs(runs, T0 + 60_000, 60 * MIN, 6_000)).toBe(T0 + 40_000 + 60 * MIN);
    expect(budgetAvailableAtMs(runs, T0 + 2 * 60 * MIN, 60 * MIN, 6_000)).toBeNull();
  });

  it('a run left open by a crash counts up to the restart (the conservative side)', () => {
    const ledger = new RunLedger();
    ledger.load([{ deviceId: 'pump', on: true, atMs: T0 }], T0 + 90_000);
    expect(onTimeInWindowMs(ledger.runs('pump'), T0 + 100_000, 60 * MIN)).toBe(90_000);
    expect(ledger.lastOffMs('pump')).toBe(T0 + 90_000);
  });
});

describe('locks', () => {
  const pump: Device = {
    _id: '1', deviceId: 'pump-1', greenhouseId: 'g', deviceName: 'Pump', deviceType: 'WATER_PUMP', status: 'OFF', powerConsumption: 0, intensity: 100,
    autoMode: false, location: 'x', lastActivated: null, automationRules: EMPTY_RULES, sensorLossAction: 'off', sensorLossDutyPct: null,
    stateReason: null, locks: [], output: null, createdAt: '', updatedAt: '',
  };
  const base: LockInput = {
    device: pump, devices: [pump], source: 'user', nowMs: T0, deviceSettings: DEFAULT_DEVICE_SETTINGS, maintenanceMode: false,
    dryRunLevelCm: undefined, cutoffC: undefined, air: { fresh: true, temperatureC: 15 }, sensorLoss: null, runs: [], lastOffMs: null, switchOnsInHour: [],
  };

  it('say what forbids switching on, with until for the ones that end by time', () => {
    expect(locksOf(base)).toEqual([]);
    expect(locksOf({ ...base, dryRunLevelCm: 4.2 })[0]).toEqual({ kind: 'dry_run', text: 'Tank low (4.2 cm, minimum 10 cm): pump locked to protect it from running dry' });
    const minOff = locksOf({ ...base, lastOffMs: T0 - 10_000 })[0]!;
    expect(minOff).toMatchObject({ kind: 'min_off', until: new Date(T0 + 20_000).toISOString() });
    const rate = locksOf({ ...base, switchOnsInHour: Array.from({ length: 30 }, (_, i) => T0 - 50 * MIN + i * 1000) })[0]!;
    expect(rate).toMatchObject({ kind: 'switch_rate', until: new Date(T0 + 10 * MIN).toISOString() });
    const heater = { ...pump, deviceType: 'HEATER' as const, deviceName: 'Heater' };
    expect(locksOf({ ...base, device: heater, air: { fresh: false, why: 'sensor fault' } })[0]).toMatchObject({ kind: 'no_reading', text: 'Air temperature unknown (sensor fault): a heater never runs blind' });
    // The duty cycle of an auto heater set to 'duty' is the one thing that runs it without a reading.
    const duty = { ...heater, autoMode: true, sensorLossAction: 'duty' as const, sensorLossDutyPct: 30 };
    expect(locksOf({ ...base, device: duty, source: 'safety', air: { fresh: false, why: 'sensor fault' } })).toEqual([]);
  });
});
