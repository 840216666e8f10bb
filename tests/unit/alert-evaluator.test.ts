import { describe, expect, it } from 'vitest';
import { STALE_AFTER_MS, type SensorField } from '../../server/contract/reading.ts';
import { snapshotOf } from '../support/snapshots.ts';
import { DEFAULT_ALERT_THRESHOLDS, type AlertThresholds } from '../../server/contract/settings.ts';
import {
  evaluateSafety,
  evaluateSensorHealth,
  evaluateThresholds,
  type ActiveAlertView,
  type Evaluation,
} from '../../server/alerts/evaluator.ts';
import { ManualClock } from '../../common/clock.ts';


const thresholds: AlertThresholds = {
  temperature: { high: 30, low: 10 },
  humidity: { high: 85, low: 30 },
  soilMoisture: { low: 30 },
  lightLevel: { low: 1000 },
  waterLevel: { low: 15 },
  co2: { high: 1500 },
};

const snapshot = snapshotOf;

/**
 * Drives the evaluator the way the service does: keeps the active alerts between calls and applies
 * each decision, so a scripted series of readings can be checked for raises, escalations and resolves.
 */
function runner(t: AlertThresholds = thresholds) {
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
  const active = new Map<string, ActiveAlertView>();
  let nextId = 1;
  const log: Array<{ kind: 'raise' | 'escalate' | 'resolve'; causeKey: string; severity?: string; text: string }> = [];
  function apply(e: Evaluation) {
    for (const r of e.resolve) {
      active.delete(r.causeKey);
      log.push({ kind: 'resolve', causeKey: r.causeKey, text: r.actionTaken });
    }
    for (const d of e.escalate) {
      active.set(d.causeKey, { id: d.id, causeKey: d.causeKey, severity: d.severity });
      log.push({ kind: 'escalate', causeKey: d.causeKey, severity: d.severity, text: d.message });
    }
    for (const d of e.raise) {
      active.set(d.causeKey, { id: nextId++, causeKey: d.causeKey, severity: d.severity });
      log.push({ kind: 'raise', causeKey: d.causeKey, severity: d.severity, text: d.message });
    }
    return e;
  }
  return {
    clock,
    active,
    log,
    apply,
    read(values: Partial<Record<SensorField, number>>, ageMs = 0) {
      clock.advance(5000);
      return apply(evaluateThresholds(snapshot(values, clock.now() - ageMs), t, active, clock.now()));
    },
  };
}

describe('threshold severity bands', () => {
  const severityOf = (values: Partial<Record<SensorField, number>>) => {
    const r = runner();
    r.read(values);
    return r.log.map((l) => l.severity);
  };
  it('temperature high: LOW < 2 °C past, MEDIUM < 5, HIGH < 8, else CRITICAL', () => {
    expect(severityOf({ temperature: 30.1 })).toEqual(['LOW']);
    expect(severityOf({ temperature: 32 })).toEqual(['MEDIUM']);
    expect(severityOf({ temperature: 37.9 })).toEqual(['HIGH']);
    expect(severityOf({ temperature: 38 })).toEqual(['CRITICAL']);
  });
  it('temperature low mirrors high', () => {
    expect(severityOf({ temperature: 9 })).toEqual(['LOW']);
    expect(severityOf({ temperature: 1 })).toEqual(['CRITICAL']);
  });
  it('humidity: 5/10/20 % bands', () => {
    expect(severityOf({ humidity: 88 })).toEqual(['LOW']);
    expect(severityOf({ humidity: 92 })).toEqual(['MEDIUM']);
    expect(severityOf({ humidity: 27 })).toEqual(['LOW']);
    expect(severityOf({ humidity: 5 })).toEqual(['CRITICAL']);
  });
  it('soil: never LOW, very dry (<= 10 %) is CRITICAL', () => {
    expect(severityOf({ soilMoisture: 28 })).toEqual(['MEDIUM']);
    expect(severityOf({ soilMoisture: 22 })).toEqual(['HIGH']);
    expect(severityOf({ soilMoisture: 19 })).toEqual(['CRITICAL']);
    const r = runner({ ...thresholds, soilMoisture: { low: 12 } });
    r.read({ soilMoisture: 10 });
    expect(r.log[0]!.severity).toBe('CRITICAL');
  });
  it('light: relative to its threshold, never CRITICAL', () => {
    expect(severityOf({ lightIntensity: 900 })).toEqual(['LOW']);
    expect(severityOf({ lightIntensity: 600 })).toEqual(['MEDIUM']);
    expect(severityOf({ lightIntensity: 0 })).toEqual(['HIGH']);
  });
  it('water level: near empty is CRITICAL', () => {
    expect(severityOf({ waterLevel: 14 })).toEqual(['MEDIUM']);
    expect(severityOf({ waterLevel: 12 })).toEqual(['HIGH']);
    expect(severityOf({ waterLevel: 9 })).toEqual(['CRITICAL']);
    const r = runner({ ...thresholds, waterLevel: { low: 4 } });
    r.read({ waterLevel: 3 });
    expect(r.log[0]!.severity).toBe('CRITICAL');
  });
  it('CO2 high: 200/500/1500 ppm bands, and at or above the 5000 ppm exposure limit always CRITICAL', () => {
    expect(severityOf({ co2: 1600 })).toEqual(['LOW']);
    expect(severityOf({ co2: 1800 })).toEqual(['MEDIUM']);
    expect(severityOf({ co2: 2999 })).toEqual(['HIGH']);
    expect(severityOf({ co2: 3000 })).toEqual(['CRITICAL']);
    const r = runner({ ...thresholds, co2: { high: 4900 } });
    r.read({ co2: 5000 });
    expect(r.log[0]).toMatchObject({ severity: 'CRITICAL', causeKey: 'threshold:co2:high', text: 'CO₂ 5000 ppm is above the high threshold of 4900 ppm' });
  });
  it('CO2 high resolves itself 50 ppm below the threshold; unset (the default) raises nothing', () => {
    const r = runner();
    r.read({ co2: 1700 });
    r.read({ co2: 1460 });
    expect(r.log.map((l) => l.kind)).toEqual(['raise']);
    r.read({ co2: 1450 });
    expect(r.log.map((l) => l.kind)).toEqual(['raise', 'resolve']);
    expect(r.log[1]!.text).toBe('Auto-resolved: CO₂ back to 1450 ppm (threshold 1500 ppm)');
    const unset = runner(DEFAULT_ALERT_THRESHOLDS);
    unset.read({ co2: 9000 });
    expect(unset.log).toEqual([]);
  });
  it('a reading exactly on the threshold raises nothing; unset thresholds raise nothing', () => {
    expect(severityOf({ temperature: 30, humidity: 30 })).toEqual([]);
    const r = runner({ ...DEFAULT_ALERT_THRESHOLDS, lightLevel: { low: null } });
    r.read({ lightIntensity: 0 });
    expect(r.log).toEqual([]);
  });
  it('the message names the quantity, the value and the threshold', () => {
    const r = runner();
    r.read({ temperature: 31.26 });
    expect(r.log[0]!.text).toBe('Temperature 31.3 °C is above the high threshold of 30 °C');
  });
});

describe('one alert per cause', () => {
  it('does not raise a duplicate while active, escalates in place, never de-escalates', () => {
    const r = runner();
    r.read({ temperature: 31 });
    r.read({ temperature: 31.5 });
    r.read({ temperature: 33 });
    r.read({ temperature: 39 });
    r.read({ temperature: 31 });
    expect(r.log.map((l) => `${l.kind}:${l.severity}`)).toEqual(['raise:LOW', 'escalate:MEDIUM', 'escalate:CRITICAL']);
    expect(r.active.size).toBe(1);
    expect(r.active.get('threshold:temperature:high')).toMatchObject({ id: 1, severity: 'CRITICAL' });
  });
  it('separate causes give separate alerts', () => {
    const r = runner();
    r.read({ temperature: 31, humidity: 95, soilMoisture: 5, waterLevel: 1, lightIntensity: 10 });
    expect(r.log.map((l) => l.causeKey).sort()).toEqual([
      'threshold:humidity:high',
      'threshold:lightLevel:low',
      'threshold:soilMoisture:low',
      'threshold:temperature:high',
      'threshold:waterLevel:low',
    ]);
  });
});

describe('self-resolution with a deadband', () => {
  it('does not flap when the reading wobbles on the threshold', () => {
    const r = runner();
    for (const t of [30.2, 29.8, 30.1, 29.9, 30.3, 29.6, 30.05]) r.read({ temperature: t });
    expect(r.log.map((l) => l.kind)).toEqual(['raise']);
  });
  it('resolves once back past the deadband, saying so', () => {
    const r = runner();
    r.read({ temperature: 32 });
    r.read({ temperature: 29.6 });
    r.read({ temperature: 29.5 });
    expect(r.log.map((l) => l.kind)).toEqual(['raise', 'resolve']);
    expect(r.log[1]!.text).toBe('Auto-resolved: temperature back to 29.5 °C (threshold 30 °C)');
    r.read({ temperature: 29.9 });
    expect(r.log).toHaveLength(2);
    r.read({ temperature: 30.4 });
    expect(r.log.map((l) => l.kind)).toEqual(['raise', 'resolve', 'raise']);
  });
  it('deadbands per quantity: 2 % humidity and soil, 50 lux, 1 cm', () => {
    const r = runner();
    r.read({ humidity: 86, soilMoisture: 29, lightIntensity: 990, waterLevel: 14.5 });
    r.read({ humidity: 83.5, soilMoisture: 31.5, lightIntensity: 1040, waterLevel: 15.9 });
    expect(r.log.filter((l) => l.kind === 'resolve')).toEqual([]);
    r.read({ humidity: 83, soilMoisture: 32, lightIntensity: 1050, waterLevel: 16 });
    expect(r.log.filter((l) => l.kind === 'resolve').map((l) => l.causeKey).sort()).toEqual([
      'threshold:humidity:high',
      'threshold:lightLevel:low',
      'threshold:soilMoisture:low',
      'threshold:waterLevel:low',
    ]);
  });
  it('resolves an active alert whose threshold was unset', () => {
    const r = runner();
    r.read({ temperature: 35 });
    const e = evaluateThresholds(snapshot({ temperature: 35 }, r.clock.now()), { ...thresholds, temperature: { high: null, low: 10 } }, r.active, r.clock.now());
    expect(e.resolve).toEqual([{ id: 1, causeKey: 'threshold:temperature:high', actionTaken: 'Auto-resolved: temperature high threshold was unset' }]);
  });
});

describe('stale data', () => {
  it('a stale reading neither raises nor resolves', () => {
    const r = runner();
    r.read({ temperature: 40 }, STALE_AFTER_MS + 1);
    expect(r.log).toEqual([]);
    r.read({ temperature: 40 }, STALE_AFTER_MS);
    expect(r.log.map((l) => l.kind)).toEqual(['raise']);
    r.read({ temperature: 20 }, STALE_AFTER_MS + 1000);
    expect(r.log.map((l) => l.kind)).toEqual(['raise']);
    r.read({ temperature: 20 });
    expect(r.log.map((l) => l.kind)).toEqual(['raise', 'resolve']);
  });
  it('a field never read (null) is ignored', () => {
    const r = runner();
    r.read({ temperature: 40 });
    r.read({});
    expect(r.log.map((l) => l.kind)).toEqual(['raise']);
  });
});

describe('sensor health', () => {
  const health = (healthy: boolean, fault: 'no_answer' | 'stuck' | null) => ({
    greenhouseId: 'greenhouse-001', sensorType: 'DHT11' as const, healthy, fault, message: '', at: '2026-06-01T12:00:00.000Z',
  });
  it('raises SENSOR_FAULT and SENSOR_STUCK (HIGH) once and resolves them when healthy', () => {
    const r = runner();
    r.apply(evaluateSensorHealth(health(false, 'no_answer'), r.active));
    r.apply(evaluateSensorHealth(health(false, 'no_answer'), r.active));
    r.apply(evaluateSensorHealth(health(false, 'stuck'), r.active));
    expect(r.log.map((l) => `${l.kind}:${l.causeKey}:${l.severity}`)).toEqual(['raise:fault:DHT11:HIGH', 'raise:stuck:DHT11:HIGH']);
    const e = evaluateSensorHealth(health(true, null), r.active);
    expect(e.raise).toEqual([]);
    expect(e.resolve.map((x) => x.causeKey)).toEqual(['fault:DHT11', 'stuck:DHT11']);
    expect(e.resolve[0]!.actionTaken).toMatch(/^Auto-resolved: DHT11/);
  });
  it('uses the alert types and the sensor as deviceId', () => {
    const e = evaluateSensorHealth(health(false, 'stuck'), new Map());
    expect(e.raise[0]).toMatchObject({ alertType: 'SENSOR_STUCK', deviceId: 'DHT11', severity: 'HIGH' });
    expect(evaluateSensorHealth(health(false, 'no_answer'), new Map()).raise[0]).toMatchObject({ alertType: 'SENSOR_FAULT' });
  });
});

describe('safety events', () => {
  const safety = (kind: 'PUMP_MAX_RUNTIME' | 'DRY_RUN_LOCKOUT' | 'INTERLOCK', active: boolean) => ({
    greenhouseId: 'greenhouse-001', kind, deviceId: 'pump-1', active, message: `${kind} on pump-1`, at: '2026-06-01T12:00:00.000Z',
  });
  it('raises with severity by kind and the device id, once', () => {
    const r = runner();
    r.apply(evaluateSafety(safety('PUMP_MAX_RUNTIME', true), r.active));
    r.apply(evaluateSafety(safety('DRY_RUN_LOCKOUT', true), r.active));
    r.apply(evaluateSafety(safety('INTERLOCK', true), r.active));
    r.apply(evaluateSafety(safety('DRY_RUN_LOCKOUT', true), r.active));
    expect(r.log.map((l) => `${l.causeKey}:${l.severity}`)).toEqual([
      'safety:PUMP_MAX_RUNTIME:pump-1:HIGH',
      'safety:DRY_RUN_LOCKOUT:pump-1:CRITICAL',
      'safety:INTERLOCK:pump-1:MEDIUM',
    ]);
    expect(evaluateSafety(safety('INTERLOCK', true), new Map()).raise[0]).toMatchObject({ deviceId: 'pump-1', alertType: 'INTERLOCK', message: 'INTERLOCK on pump-1' });
  });
  it('lockout and interlock resolve on release; a max-runtime cut-off waits for a person', () => {
    const r = runner();
    for (const kind of ['PUMP_MAX_RUNTIME', 'DRY_RUN_LOCKOUT', 'INTERLOCK'] as const) r.apply(evaluateSafety(safety(kind, true), r.active));
    for (const kind of ['PUMP_MAX_RUNTIME', 'DRY_RUN_LOCKOUT', 'INTERLOCK'] as const) r.apply(evaluateSafety(safety(kind, false), r.active));
    expect([...r.active.keys()]).toEqual(['safety:PUMP_MAX_RUNTIME:pump-1']);
  });
});

describe('acknowledged causes (resolved or deleted by a person while still out of range)', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const evaluate = (temperature: number, acked: Map<string, 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL'>) =>
    evaluateThresholds(snapshot({ temperature }, now), thresholds, new Map(), now, acked);
  const acked = new Map([['threshold:temperature:high', 'MEDIUM' as const]]);

  it('are not raised again at the same or a lower severity', () => {
    expect(evaluate(33, acked).raise).toEqual([]);
    expect(evaluate(30.5, acked).raise).toEqual([]);
    expect(evaluate(33, acked).clearAcknowledged).toEqual([]);
  });
  it('are raised again when worse than acknowledged', () => {
    expect(evaluate(36, acked).raise.map((d) => d.severity)).toEqual(['HIGH']);
  });
  it('end once the reading is back past the deadband', () => {
    expect(evaluate(29.8, acked).clearAcknowledged).toEqual([]);
    expect(evaluate(29.5, acked).clearAcknowledged).toEqual(['threshold:temperature:high']);
    const unset = evaluateThresholds(snapshot({ temperature: 40 }, now), { ...thresholds, temperature: { high: null, low: 10 } }, new Map(), now, acked);
    expect(unset.clearAcknowledged).toEqual(['threshold:temperature:high']);
  });
});
