// Pure helpers behind the dashboard's overnight control: the schedule editor's model, today's times,
// rule bands in °C/°F, sensor truth, lock sentences and the control-log words and paging.
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../server/contract/alert.ts';
import type { Device, DeviceLock } from '../../../server/contract/device.ts';
import { EMPTY_RULES } from '../../../server/contract/device.ts';
import type { Reading } from '../../../server/contract/reading.ts';
import { CONTROL_LOG_PAGE, controlLogPath } from '../../../web/src/api/control-log.ts';
import { formFromSchedule, scheduleFromForm } from '../../../web/src/schedule/schedule-form.ts';
import { resolveEnd, todayWindow } from '../../../web/src/schedule/sun-times.ts';
import { RULE_LABELS } from '../../../web/src/screens/devices/device-ui.ts';
import { rulesFromTexts, textsFromRules } from '../../../web/src/screens/devices/automation/rule-form.ts';
import { ruleStatements } from '../../../web/src/screens/devices/automation/rule-text.ts';
import { reasonLine, whoWords } from '../../../web/src/screens/devices/control-words.ts';
import { blockedControl, lockSentence } from '../../../web/src/screens/devices/lock-words.ts';
import { sensorHealth, staleAfterMs } from '../../../web/src/sensors/sensor-health.ts';
import { fromUnit } from '../../../web/src/units.ts';
import { windowAt } from '../../../server/devices/rules/schedule.ts';
import { inTimeZone } from '../../support/time-zone.ts';

const DEADBAND = { temperatureC: 0.5, humidityPct: 3, soilMoisturePct: 3, lightLux: 50 };
const AMSTERDAM = { latitude: 52.37, longitude: 4.9 };
const local = (h: number, m = 0) => new Date(2026, 5, 21, h, m).getTime();

function device(overrides: Partial<Device> = {}): Device {
  return {
    _id: '1', deviceId: 'heater-1', greenhouseId: 'greenhouse-001', deviceName: 'Heater', deviceType: 'HEATER', status: 'OFF',
    powerConsumption: 800, intensity: 0, autoMode: true, location: 'Main Greenhouse', lastActivated: null,
    automationRules: { ...EMPTY_RULES }, sensorLossAction: 'off', sensorLossDutyPct: null, stateReason: null, locks: [], output: null,
    createdAt: '2026-06-21T00:00:00.000Z', updatedAt: '2026-06-21T00:00:00.000Z', ...overrides,
  };
}

describe('schedule editor', () => {
  it('"from sunrise for 16 h" is sunrise to sunrise+960 and reads back the same way', () => {
    const form = { ...formFromSchedule(null), on: true, startKind: 'sunrise' as const, endKind: 'duration' as const, durationH: '16' };
    expect(scheduleFromForm(form)).toEqual({ from: 'sunrise', to: 'sunrise+960' });
    const back = formFromSchedule({ from: 'sunrise', to: 'sunrise+960' });
    expect(back).toMatchObject({ on: true, startKind: 'sunrise', endKind: 'duration', durationH: '16' });
  });

  it('clock windows, sun offsets and durations from a clock time (across midnight)', () => {
    const base = { ...formFromSchedule(null), on: true };
    expect(scheduleFromForm({ ...base, startClock: '22:00', endClock: '06:00' })).toEqual({ from: '22:00', to: '06:00' });
    expect(scheduleFromForm({ ...base, startKind: 'sunset', startOffsetMin: '-30', endKind: 'clock', endClock: '23:00' })).toEqual({ from: 'sunset-30', to: '23:00' });
    expect(scheduleFromForm({ ...base, startClock: '20:00', endKind: 'duration', durationH: '8' })).toEqual({ from: '20:00', to: '04:00' });
    expect(formFromSchedule({ from: 'sunset-30', to: '23:00' })).toMatchObject({ startKind: 'sunset', startOffsetMin: '-30', endKind: 'clock', endClock: '23:00' });
    expect(scheduleFromForm({ ...base, on: false })).toBeNull();
  });

  it('says what is wrong instead of sending it', () => {
    const base = { ...formFromSchedule(null), on: true };
    expect(scheduleFromForm({ ...base, endKind: 'duration', durationH: '30' })).toBe('Duration must be more than 0 and less than 24 hours');
    expect(scheduleFromForm({ ...base, startKind: 'sunrise', startOffsetMin: '1200' })).toMatch(/^Start offset must be a whole number of minutes/);
    expect(scheduleFromForm({ ...base, startKind: 'sunrise', endKind: 'duration', durationH: '17' })).toMatch(/^Duration after sunrise can be at most 16.65 h/);
    expect(scheduleFromForm({ ...base, startClock: '06:00', endClock: '06:00' })).toBe('The schedule must not start and end at the same time');
  });

  it("works out today's times at the site, and says why it cannot without one", () => {
    const sunrise = resolveEnd('sunrise', local(9), AMSTERDAM) as number;
    expect(new Date(sunrise).getDate()).toBe(21);
    expect(resolveEnd('sunrise+960', local(9), AMSTERDAM)).toBe(sunrise + 960 * 60_000);
    expect(todayWindow({ from: '22:00', to: '06:00' }, null, local(9))).toEqual({ text: 'today 22:00-06:00 (ends the next morning)', ok: true });
    expect(todayWindow({ from: 'sunrise', to: '20:00' }, null, local(9))).toEqual({ text: "Today's times unknown: the greenhouse location is not set (Settings, System)", ok: false });
    // Midsummer far north: the sun does not set.
    expect(todayWindow({ from: '06:00', to: 'sunset' }, { latitude: 78, longitude: 15 }, local(9)).ok).toBe(false);
  });
});

describe("today's times on the night the clocks go forward", () => {
  inTimeZone('Europe/Amsterdam');

  it('shows the times the gateway uses: 02:30 is the jump to 03:00 summer time', () => {
    const day = new Date(2026, 2, 29, 9).getTime();
    expect(todayWindow({ from: '02:30', to: '03:15' }, null, day)).toEqual({ text: 'today 03:00-03:15 (the clock changes today)', ok: true });
    const gateway = windowAt({ from: '02:30', to: '03:15' }, day, null);
    expect(gateway).toMatchObject({ fromMs: resolveEnd('02:30', day, null), toMs: resolveEnd('03:15', day, null) });
  });
});

describe('rule bands in the chosen unit', () => {
  it('a heating band in °F is sent in °C with its offAt, and stated as a grower says it', () => {
    const texts = { ...textsFromRules(EMPTY_RULES, 'F'), temperatureLow: { on: '64.4', off: '68' } };
    const rules = rulesFromTexts(device(), ['temperatureLow'], texts, 'F', RULE_LABELS);
    expect(rules).toMatchObject({ temperatureLow: 18, offAt: { temperatureLow: 20 } });
    expect(ruleStatements('HEATER', ['temperatureLow'], rules as typeof EMPTY_RULES, DEADBAND, 'F')).toEqual(['Heat below 64.4 °F, stop at 68 °F']);
    expect(ruleStatements('HEATER', ['temperatureLow'], rules as typeof EMPTY_RULES, DEADBAND, 'C')).toEqual(['Heat below 18 °C, stop at 20 °C']);
    // Read back: the stored °C shows as °F again.
    expect(textsFromRules(rules as typeof EMPTY_RULES, 'F').temperatureLow).toEqual({ on: '64.4', off: '68' });
  });

  it('without its own stop value a rule lets go at the deadband, said in the unit', () => {
    const rules = { ...EMPTY_RULES, temperatureHigh: 30, humidityHigh: 85 };
    expect(ruleStatements('FAN', ['temperatureHigh', 'humidityHigh'], rules, DEADBAND, 'F')).toEqual([
      'Ventilate above 86 °F, stop at 85.1 °F (the 0.9 °F deadband)',
      'Ventilate above 85 % humidity, stop at 82 % humidity (the 3 % deadband)',
    ]);
  });

  it('refuses a band the wrong way round, naming the field', () => {
    const low = { ...textsFromRules(EMPTY_RULES, 'C'), temperatureLow: { on: '18', off: '16' } };
    expect(rulesFromTexts(device(), ['temperatureLow'], low, 'C', RULE_LABELS)).toBe('Temperature Low (°C): stop at must be above the threshold (it switches on below it)');
    const high = { ...textsFromRules(EMPTY_RULES, 'C'), temperatureHigh: { on: '30', off: '31' } };
    expect(rulesFromTexts(device({ deviceType: 'COOLING_SYSTEM' }), ['temperatureHigh'], high, 'C', RULE_LABELS)).toBe(
      'Temperature High (°C): stop at must be below the threshold (it switches on above it)',
    );
  });

  it('°F back to °C keeps whole Celsius numbers whole', () => {
    expect([fromUnit(64.4, 'F'), fromUnit(95, 'F'), fromUnit(21.5, 'C')]).toEqual([18, 35, 21.5]);
  });
});

describe('sensor truth', () => {
  const now = Date.parse('2026-06-21T02:10:00.000Z');
  const reading = (agoMs: number, extra: Record<string, unknown> = {}) =>
    ({ _id: 'r', greenhouseId: 'greenhouse-001', sensorType: 'DHT11', timestamp: new Date(now - agoMs).toISOString(), temperature: 17, ...extra }) as Reading;
  const fault = { alertType: 'SENSOR_FAULT', deviceId: 'DHT11', isResolved: false } as Alert;

  it('a sensor silent for three intervals (plus one dashboard poll) is stale, whatever its last value', () => {
    expect(staleAfterMs(5)).toBe(30_000);
    expect(sensorHealth('DHT11', reading(20_000), [], 5, now).state).toBe('online');
    expect(sensorHealth('DHT11', reading(31_000), [], 5, now).state).toBe('stale');
    // Never later than the 5-minute limit, however long the interval.
    expect(staleAfterMs(3600)).toBe(300_000);
  });

  it("a SENSOR_FAULT alert or the gateway's own status makes it faulted at once", () => {
    expect(sensorHealth('DHT11', reading(1000), [fault], 5, now).state).toBe('fault');
    expect(sensorHealth('LDR', undefined, [fault], 5, now).state).toBe('offline');
    expect(sensorHealth('DHT11', reading(1000, { status: 'fault' }), [], 5, now).state).toBe('fault');
    expect(sensorHealth('DHT11', reading(1000, { status: 'stale' }), [], 5, now).state).toBe('stale');
    expect(sensorHealth('DHT11', reading(1000), [{ ...fault, isResolved: true }], 5, now).state).toBe('online');
  });
});

describe('locks and reasons on a card', () => {
  const now = new Date(2026, 5, 21, 2, 30).getTime();
  const budget: DeviceLock = { kind: 'run_budget', text: 'Run budget spent: 300 s in the last 60 min', until: new Date(2026, 5, 21, 3, 12).toISOString() };

  it('adds "until" to a lock that ends by time, once', () => {
    expect(lockSentence(budget, now)).toBe('Run budget spent: 300 s in the last 60 min · until 03:12');
    expect(lockSentence({ ...budget, text: 'Run budget spent; available again at 03:12' }, now)).toBe('Run budget spent; available again at 03:12');
  });

  it('a lock disables switching on, never switching off; an unreachable gateway disables both', () => {
    const locked = device({ deviceType: 'WATER_PUMP', locks: [budget] });
    expect(blockedControl(locked, null, null)).toEqual({ reason: 'Switching on is locked', lockedOn: true });
    expect(blockedControl({ ...locked, status: 'ON' }, null, null)).toBeNull();
    expect(blockedControl({ ...locked, status: 'ON' }, 'Gateway unreachable', null)).toEqual({ reason: 'Gateway unreachable', lockedOn: false });
    expect(blockedControl(device({ deviceType: 'SERVO', status: 'CLOSED', locks: [budget] }), null, null)?.reason).toBe('Opening is locked');
  });

  it('says who or what and since when', () => {
    expect(reasonLine({ source: 'safety', text: 'Off: tank low', since: new Date(2026, 5, 21, 2, 14).toISOString() }, now)).toBe('Safety · Off: tank low · since 02:14');
    expect(reasonLine({ source: 'rule', text: 'On: below 18 °C', since: new Date(2026, 5, 20, 23, 5).toISOString() }, now)).toBe('Rule · On: below 18 °C · since Jun 20 23:05');
    expect(whoWords({ source: 'user', actor: 'grower' })).toBe('grower');
    expect(whoWords({ source: 'safety', actor: 'dry_run' })).toBe('Safety · dry run');
    expect(whoWords({ source: 'mqtt', actor: 'mqtt' })).toBe('MQTT');
  });
});

describe('control log paging', () => {
  it('asks for one source and older entries only when told to', () => {
    expect(controlLogPath('fan-1', 'all', null)).toBe(`/api/devices/fan-1/log?limit=${CONTROL_LOG_PAGE}`);
    expect(controlLogPath('fan 1', 'safety', { before: '2026-06-21T02:14:00.000Z', beforeId: '42' })).toBe(
      `/api/devices/fan%201/log?limit=${CONTROL_LOG_PAGE}&source=safety&before=2026-06-21T02%3A14%3A00.000Z&beforeId=42`,
    );
  });
});
