import type { Severity } from '../contract/alert.ts';
import { STALE_AFTER_MS, type SensorSnapshot, type SensorType } from '../contract/reading.ts';
import type { AlertThresholds } from '../contract/settings.ts';
import type { GatewayEvents } from '../events/bus.ts';
import { THRESHOLD_RULES, type ThresholdRule } from './threshold-rules.ts';

/** What the evaluator needs to know about an alert that is active now. */
export interface ActiveAlertView {
  id: number;
  causeKey: string;
  severity: Severity;
}

/** An alert to raise (or, when its cause is already active, to escalate to). */
export interface AlertDraft {
  causeKey: string;
  alertType: string;
  severity: Severity;
  message: string;
  deviceId: string | null;
  value: number | null;
  threshold: number | null;
}

export interface Resolution {
  id: number;
  causeKey: string;
  actionTaken: string;
}

/**
 * The evaluator's decision. `raise` holds new alerts (their cause has no active alert); `escalate` holds
 * active alerts whose severity grew: the service updates that row's severity and message in place
 * instead of adding a duplicate. Severity never drops while an alert is active (a reading creeping back
 * towards the threshold is not news); the alert resolves once the reading is back past the deadband.
 */
export interface Evaluation {
  raise: AlertDraft[];
  escalate: Array<AlertDraft & { id: number }>;
  resolve: Resolution[];
  /** Acknowledged causes whose reading is back in range: forget the acknowledgement. */
  clearAcknowledged: string[];
}

export const SEVERITY_RANK: Record<Severity, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };

const empty = (): Evaluation => ({ raise: [], escalate: [], resolve: [], clearAcknowledged: [] });

export function formatQuantity(value: number, rule: Pick<ThresholdRule, 'decimals' | 'unit'>): string {
  const rounded = Number(value.toFixed(rule.decimals));
  return `${rounded} ${rule.unit}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Threshold alerts for one snapshot. Pure: the same inputs give the same decision. A field that was never
 * read, or was read longer than STALE_AFTER_MS before `nowMs`, neither raises nor resolves anything:
 * a dead sensor is reported by its own SENSOR_FAULT alert, not by guessing from an old value.
 *
 * `acknowledged` holds causes whose alert a person resolved or deleted while the reading was still out of
 * range, with the severity it had. Such a cause is not raised again every tick (that would undo the
 * person's action within seconds); it is raised again only if it gets worse than acknowledged, and the
 * acknowledgement ends once the reading is back in range past the deadband.
 */
export function evaluateThresholds(
  snapshot: SensorSnapshot,
  thresholds: AlertThresholds,
  active: ReadonlyMap<string, ActiveAlertView>,
  nowMs: number,
  acknowledged: ReadonlyMap<string, Severity> = new Map(),
): Evaluation {
  const result = empty();
  for (const rule of THRESHOLD_RULES) {
    const current = active.get(rule.causeKey);
    const acked = acknowledged.get(rule.causeKey);
    const threshold = rule.threshold(thresholds);
    if (threshold === null) {
      // The operator removed the threshold: an alert about it no longer means anything.
      if (current) result.resolve.push({ id: current.id, causeKey: rule.causeKey, actionTaken: `Auto-resolved: ${rule.label} ${rule.side} threshold was unset` });
      if (acked) result.clearAcknowledged.push(rule.causeKey);
      continue;
    }
    const value = snapshot.values[rule.field];
    const readAtMs = snapshot.readAtMs[rule.field];
    if (value === null || readAtMs === null) continue;
    if (!Number.isFinite(readAtMs) || nowMs - readAtMs > STALE_AFTER_MS) continue;

    const past = rule.side === 'high' ? value > threshold : value < threshold;
    if (past) {
      const severity = rule.severity(value, threshold);
      const draft: AlertDraft = {
        causeKey: rule.causeKey,
        alertType: rule.alertType,
        severity,
        message: `${capitalise(rule.label)} ${formatQuantity(value, rule)} is ${rule.side === 'high' ? 'above' : 'below'} the ${rule.side} threshold of ${formatQuantity(threshold, rule)}`,
        deviceId: null,
        value,
        threshold,
      };
      if (!current) {
        if (!acked || SEVERITY_RANK[severity] > SEVERITY_RANK[acked]) result.raise.push(draft);
      } else if (SEVERITY_RANK[severity] > SEVERITY_RANK[current.severity]) result.escalate.push({ ...draft, id: current.id });
      continue;
    }
    const backInRange = rule.side === 'high' ? value <= threshold - rule.deadband : value >= threshold + rule.deadband;
    if (acked && backInRange) result.clearAcknowledged.push(rule.causeKey);
    if (current && backInRange) {
      result.resolve.push({
        id: current.id,
        causeKey: rule.causeKey,
        actionTaken: `Auto-resolved: ${rule.label} back to ${formatQuantity(value, rule)} (threshold ${formatQuantity(threshold, rule)})`,
      });
    }
  }
  return result;
}

export const faultCauseKey = (sensorType: SensorType, fault: 'no_answer' | 'stuck') =>
  fault === 'stuck' ? `stuck:${sensorType}` : `fault:${sensorType}`;

/**
 * Sensor health: a sensor that stops answering raises SENSOR_FAULT, one that repeats the same value
 * SENSOR_STUCK (both HIGH, deviceId = the sensor type). When it is healthy again both resolve.
 * A SENSOR_FAULT of a sensor that auto-mode devices depend on (`dependents`, their names) is CRITICAL,
 * so it is mailed: automation is running without its input, and the message names what is affected.
 */
export function evaluateSensorHealth(
  event: GatewayEvents['sensorHealthChanged'],
  active: ReadonlyMap<string, ActiveAlertView>,
  dependents: readonly string[] = [],
): Evaluation {
  const result = empty();
  const { sensorType } = event;
  if (event.healthy) {
    for (const fault of ['no_answer', 'stuck'] as const) {
      const current = active.get(faultCauseKey(sensorType, fault));
      if (current) {
        result.resolve.push({ id: current.id, causeKey: current.causeKey, actionTaken: `Auto-resolved: ${sensorType} sensor is answering normally again` });
      }
    }
    return result;
  }
  const fault = event.fault ?? 'no_answer';
  const causeKey = faultCauseKey(sensorType, fault);
  if (active.has(causeKey)) return result;
  const defaultMessage =
    fault === 'stuck' ? `${sensorType} sensor keeps reporting the same value` : `${sensorType} sensor is not answering`;
  const critical = fault === 'no_answer' && dependents.length > 0;
  const affected = critical ? `; automation depends on it: ${dependents.join(', ')}` : '';
  result.raise.push({
    causeKey,
    alertType: fault === 'stuck' ? 'SENSOR_STUCK' : 'SENSOR_FAULT',
    severity: critical ? 'CRITICAL' : 'HIGH',
    message: `${event.message || defaultMessage}${affected}`,
    deviceId: sensorType,
    value: null,
    threshold: null,
  });
  return result;
}

export const instanceCauseKey = (sensorId: string) => `instance:${sensorId}`;

/**
 * One sensor of a zone failed (or is stuck) while another still serves the zone: SENSOR_DEGRADED,
 * MEDIUM, naming the instance (deviceId = its sensorId). Nothing else changes: rules and safety go on
 * with the zone's other sensors. When every sensor of the zone has failed the zone's own SENSOR_FAULT
 * speaks instead. Resolves when the instance is healthy again.
 */
export function evaluateInstanceHealth(
  event: GatewayEvents['sensorInstanceHealthChanged'],
  active: ReadonlyMap<string, ActiveAlertView>,
): Evaluation {
  const result = empty();
  const causeKey = instanceCauseKey(event.sensorId);
  const current = active.get(causeKey);
  if (event.healthy) {
    if (current) result.resolve.push({ id: current.id, causeKey, actionTaken: `Auto-resolved: sensor "${event.name}" answers normally again` });
    return result;
  }
  if (current || !event.zoneServed) return result;
  result.raise.push({
    causeKey,
    alertType: 'SENSOR_DEGRADED',
    severity: 'MEDIUM',
    message: `${event.message}; the other ${event.sensorType} sensors still serve the zone`,
    deviceId: event.sensorId,
    value: null,
    threshold: null,
  });
  return result;
}

export const SAFETY_SEVERITY = {
  PUMP_MAX_RUNTIME: 'HIGH',
  // A heater switched on by hand ran its limit: someone forgot it, or the heating cannot keep up.
  HEATER_MAX_RUNTIME: 'HIGH',
  DRY_RUN_LOCKOUT: 'CRITICAL',
  INTERLOCK: 'MEDIUM',
  // A device in auto mode lost its input and was switched to its safe state: the crop is unattended.
  SENSOR_LOSS: 'HIGH',
  HEATER_CUTOFF: 'CRITICAL',
  // Water went in and the soil did not change: a dry tank, a clog, a leak or a probe out of the soil.
  IRRIGATION_NO_EFFECT: 'HIGH',
  // Watering blind on a timer: the grower should fix the probe.
  IRRIGATION_FALLBACK: 'MEDIUM',
} as const;

/** Events that describe something that happened: their alert stays until a person resolves it. */
const KEPT_UNTIL_RESOLVED: ReadonlySet<string> = new Set(['PUMP_MAX_RUNTIME', 'HEATER_MAX_RUNTIME', 'IRRIGATION_NO_EFFECT']);

/**
 * Safety interlocks. DRY_RUN_LOCKOUT, INTERLOCK, SENSOR_LOSS and HEATER_CUTOFF describe a state and resolve when released.
 * PUMP_MAX_RUNTIME and HEATER_MAX_RUNTIME describe something that happened (a pump was cut off after running too long, which
 * hints at a leak, a blocked line or a bad soil probe): it stays until a person resolves it.
 */
export function evaluateSafety(
  event: GatewayEvents['safetyEvent'],
  active: ReadonlyMap<string, ActiveAlertView>,
): Evaluation {
  const result = empty();
  const causeKey = `safety:${event.kind}:${event.deviceId}`;
  const current = active.get(causeKey);
  if (event.active) {
    if (!current) {
      result.raise.push({
        causeKey,
        alertType: event.kind,
        severity: SAFETY_SEVERITY[event.kind],
        message: event.message,
        deviceId: event.deviceId,
        value: null,
        threshold: null,
      });
    }
  } else if (current && !KEPT_UNTIL_RESOLVED.has(event.kind)) {
    result.resolve.push({ id: current.id, causeKey, actionTaken: `Auto-resolved: ${event.kind.replaceAll('_', ' ').toLowerCase()} released on ${event.deviceId}` });
  }
  return result;
}
