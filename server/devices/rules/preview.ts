import type { AutomationPreview, AutomationRules, DeviceType, PreviewStep, SensorLossAction } from '../../contract/device.ts';
import { SENSOR_FIELDS, SENSOR_TYPES, type SensorField, type SensorSnapshot, type SensorType } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import { statusFor } from '../actions.ts';
import { evaluateRules } from './engine.ts';
import type { FaultInterval, RecordedReading } from './recorded-history.ts';
import { configuredRules, shapeOf } from './rule-kinds.ts';
import type { Site } from './schedule.ts';

export interface ReplayInput {
  device: { deviceType: DeviceType; powerW: number; sensorLossAction: SensorLossAction };
  rules: AutomationRules;
  deviceSettings: DeviceSettings;
  site: Site | null;
  fromMs: number;
  toMs: number;
  /** The device's state when the window opens. */
  initial: { on: boolean; sinceMs: number | null };
  /** Stored readings in time order (only the sensors the rules read are needed). */
  readings: Iterable<RecordedReading>;
  faults: readonly FaultInterval[];
  /** Readings closer together than this belong to one sampling tick (half the sampling interval). */
  tickGapMs: number;
}

/** The sensors whose readings a replay of these rules needs; every sensor for a schedule-only device (its tick times). */
export function sensorsFor(rules: AutomationRules, deadband: DeviceSettings['deadband']): SensorType[] {
  const fields = new Set(configuredRules(rules).map((rule) => shapeOf(rule, deadband).field));
  if (fields.size === 0) return [...SENSOR_TYPES];
  return SENSOR_TYPES.filter((type) => SENSOR_FIELDS[type].some((f) => fields.has(f)));
}

const COLUMN: Record<SensorField, keyof RecordedReading> = {
  temperature: 'temperatureC',
  humidity: 'humidityPct',
  lightIntensity: 'lightLux',
  soilMoisture: 'soilMoisturePct',
  waterLevel: 'waterLevelCm',
};

/**
 * The rule preview: the pure engine replayed over recorded history, exactly as the runner applies it
 * live: one evaluation per sampling tick (and when a sensor was declared faulted), with the newest
 * value of every field, the same hysteresis, minimum times, schedule and sensor-loss fail-safe. It
 * touches nothing. Safety interlocks outside the engine (cut-off, pump limits) are not replayed.
 */
export function replayRules(input: ReplayInput): AutomationPreview {
  const { device, rules, fromMs, toMs } = input;
  const emptySnapshot = () => Object.fromEntries(Object.keys(COLUMN).map((f) => [f, null])) as Record<SensorField, never>;
  const snapshot: SensorSnapshot = { takenAt: new Date(fromMs).toISOString(), values: emptySnapshot(), readAt: emptySnapshot() };
  let on = input.initial.on;
  let sinceMs = input.initial.sinceMs;
  let onSeconds = 0;
  let lastAtMs = fromMs;
  const timeline: PreviewStep[] = [
    { at: new Date(fromMs).toISOString(), status: statusFor(device.deviceType, on), reason: 'state at the start of the window' },
  ];

  const faultedAt = (atMs: number) =>
    new Set(input.faults.filter((f) => f.fromMs <= atMs && (f.toMs === null || atMs < f.toMs)).flatMap((f) => SENSOR_FIELDS[f.sensorType]));

  const evaluateAt = (nowMs: number) => {
    const decision = evaluateRules({
      device: { deviceType: device.deviceType, autoMode: true, automationRules: rules, sensorLossAction: device.sensorLossAction, isOn: on, sinceMs },
      snapshot: { ...snapshot, takenAt: new Date(nowMs).toISOString() },
      deviceSettings: input.deviceSettings,
      nowMs,
      faultedFields: faultedAt(nowMs),
      site: input.site,
    });
    if (decision.desired === 'hold' || (decision.desired === 'on') === on) return;
    if (on) onSeconds += (nowMs - lastAtMs) / 1000;
    lastAtMs = nowMs;
    on = decision.desired === 'on';
    sinceMs = nowMs;
    timeline.push({ at: new Date(nowMs).toISOString(), status: statusFor(device.deviceType, on), reason: decision.reason });
  };

  // The moments a sensor was declared faulted: the live runner evaluates at once then.
  const faultStarts = input.faults.map((f) => f.fromMs).filter((ms) => ms >= fromMs && ms <= toMs).sort((a, b) => a - b);
  let nextFault = 0;
  let tickEndMs: number | null = null;
  const flushTick = () => {
    if (tickEndMs === null) return;
    while (nextFault < faultStarts.length && faultStarts[nextFault]! < tickEndMs) evaluateAt(faultStarts[nextFault++]!);
    evaluateAt(tickEndMs);
    tickEndMs = null;
  };
  let tickStartMs = -Infinity;
  for (const row of input.readings) {
    if (row.takenAtMs - tickStartMs >= input.tickGapMs) {
      flushTick();
      tickStartMs = row.takenAtMs;
    }
    tickEndMs = row.takenAtMs;
    for (const field of SENSOR_FIELDS[row.sensorType]) {
      const value = row[COLUMN[field]] as number | null;
      if (value === null) continue;
      snapshot.values[field] = value;
      snapshot.readAt[field] = new Date(row.takenAtMs).toISOString();
    }
  }
  flushTick();
  while (nextFault < faultStarts.length) evaluateAt(faultStarts[nextFault++]!);

  if (on) onSeconds += (toMs - lastAtMs) / 1000;
  return {
    switches: timeline.length - 1,
    onSeconds: Math.round(onSeconds),
    energyWh: Math.round(((onSeconds * device.powerW) / 3600) * 10) / 10,
    timeline,
  };
}
