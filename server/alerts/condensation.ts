import { STALE_AFTER_MS, type SensorSnapshot } from '../contract/reading.ts';
import { dewPointC } from '../sensors/climate-metrics.ts';
import type { ActiveAlertView, Evaluation } from './evaluator.ts';

/**
 * Condensation risk: leaves and glazing run a little colder than the air, so when the air is within
 * this margin of its dew point water condenses on them (botrytis, downy mildew). 2 °C is the margin
 * greenhouse climate computers commonly alarm on; the DHT11's own ±2 °C makes a smaller one noise.
 */
export const CONDENSATION_MARGIN_C = 2;
/** The air must stay inside the margin this long: one damp reading is not a risk. */
export const CONDENSATION_PERSIST_MS = 10 * 60_000;
/** Resolves once the air is this far beyond the margin. */
export const CONDENSATION_RELEASE_BAND_C = 1;
export const CONDENSATION_CAUSE = 'climate:condensation';

/** Since when the air has been within the margin (null: it is not), carried from one tick to the next. */
export interface CondensationState {
  withinMarginSinceMs: number | null;
}

/**
 * Pure: the condensation-risk alert for one snapshot. A stale or missing temperature or humidity
 * changes nothing (a dead sensor has its own SENSOR_FAULT alert).
 */
export function evaluateCondensation(
  snapshot: SensorSnapshot,
  state: CondensationState,
  active: ReadonlyMap<string, ActiveAlertView>,
  nowMs: number,
): { evaluation: Evaluation; state: CondensationState } {
  const evaluation: Evaluation = { raise: [], escalate: [], resolve: [], clearAcknowledged: [] };
  const { temperature, humidity } = snapshot.values;
  const fresh = (field: 'temperature' | 'humidity') => {
    const readAtMs = snapshot.readAtMs[field];
    return readAtMs !== null && nowMs - readAtMs <= STALE_AFTER_MS;
  };
  if (temperature === null || humidity === null || !fresh('temperature') || !fresh('humidity')) return { evaluation, state };
  const dew = dewPointC(temperature, humidity);
  if (dew === null) return { evaluation, state };
  const spreadC = temperature - dew;
  const current = active.get(CONDENSATION_CAUSE);
  if (spreadC < CONDENSATION_MARGIN_C) {
    const since = state.withinMarginSinceMs ?? nowMs;
    if (!current && nowMs - since >= CONDENSATION_PERSIST_MS) {
      evaluation.raise.push({
        causeKey: CONDENSATION_CAUSE,
        alertType: 'CONDENSATION_RISK',
        severity: 'MEDIUM',
        message: `Condensation risk: air ${temperature.toFixed(1)} °C is only ${spreadC.toFixed(1)} °C above its dew point of ${dew.toFixed(1)} °C (margin ${CONDENSATION_MARGIN_C} °C) for ${Math.round((nowMs - since) / 60_000)} minutes; ventilate or heat`,
        deviceId: null,
        value: Math.round(spreadC * 10) / 10,
        threshold: CONDENSATION_MARGIN_C,
      });
    }
    return { evaluation, state: { withinMarginSinceMs: since } };
  }
  if (current && spreadC >= CONDENSATION_MARGIN_C + CONDENSATION_RELEASE_BAND_C) {
    evaluation.resolve.push({ id: current.id, causeKey: CONDENSATION_CAUSE, actionTaken: `Auto-resolved: air ${spreadC.toFixed(1)} °C above its dew point again` });
  }
  return { evaluation, state: { withinMarginSinceMs: null } };
}
