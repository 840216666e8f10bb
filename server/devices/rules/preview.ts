import type { AutomationPreview, AutomationRules, DeviceType, PreviewStep, SensorLossAction } from '../../contract/device.ts';
import { SENSOR_FIELDS, SENSOR_TYPES, SENSOR_UNITS, type SensorField, type SensorSnapshot, type SensorType } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import { statusFor } from '../actions.ts';
import { evaluateRules, type RuleDevice, type RuleInput } from './engine.ts';
import type { FaultInterval, RecordedReading } from './recorded-history.ts';
import { configuredRules, shapeOf } from './rule-kinds.ts';
import type { Site } from './schedule.ts';
import { IrrigationReplay } from '../irrigation/replay.ts';
import type { ClimateProgram } from '../../contract/climate.ts';
import { targetsAt, type PlacedDays } from '../../climate/targets.ts';

export interface ReplayInput {
  device: { deviceType: DeviceType; powerW: number; sensorLossAction: SensorLossAction; sensorLossDutyPct: number | null; flowLitresPerMinute?: number | null };
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
  /** The climate program a following device replays; null or absent otherwise (docs/climate.md). */
  climate?: ClimateProgram | null;
}

/** The sensors whose readings a replay of these rules needs; every sensor for a schedule-only device (its tick times). */
export function sensorsFor(rules: AutomationRules, deadband: DeviceSettings['deadband'], deviceType?: DeviceType): SensorType[] {
  const fields = new Set(configuredRules(rules).map((rule) => shapeOf(rule, deadband).field));
  // An irrigation program reads the soil and the tank (docs/irrigation.md).
  if (rules.irrigation && deviceType === 'WATER_PUMP') fields.add('soilMoisture').add('waterLevel');
  if (fields.size === 0) return [...SENSOR_TYPES];
  // A heater needs the air temperature whatever its rules (the engine's no-blind-heater rule).
  if (deviceType === 'HEATER') fields.add('temperature');
  return SENSOR_TYPES.filter((type) => SENSOR_FIELDS[type].some((f) => fields.has(f)));
}

/** The recorded columns the rules can use (a rule has no input among the other quantities). */
const COLUMN: Partial<Record<SensorField, keyof RecordedReading>> = {
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
 * Fed a reading at a time (`add`), so a long replay can give the event loop back between its pages.
 */
export class Replay {
  readonly #input: Omit<ReplayInput, 'readings'>;
  readonly #snapshot: SensorSnapshot;
  readonly #faultStarts: number[];
  readonly #timeline: PreviewStep[];
  readonly #noFaults = new Set<SensorField>();
  #on: boolean;
  #sinceMs: number | null;
  #onSeconds = 0;
  #lastAtMs: number;
  #nextFault = 0;
  #tickStartMs = -Infinity;
  #tickEndMs: number | null = null;
  /** A pump with an irrigation program follows it instead of the threshold rules, as it does live. */
  readonly #irrigation: IrrigationReplay | null;
  #pulses = 0;
  /** A roof window's opening as replayed (0-100). */
  #openPct: number;
  /** The program's periods placed per local day, computed once per day of the replay. */
  readonly #days: PlacedDays = new Map();
  /**
   * The engine's input, refilled for each evaluation (the engine keeps nothing of it): a week at 1 Hz is
   * 600,000 evaluations, and two objects each were a sixteenth of what a preview worker allocated.
   */
  readonly #ruleDevice: RuleDevice;
  readonly #ruleInput: RuleInput;

  constructor(input: Omit<ReplayInput, 'readings'>) {
    this.#input = input;
    const empty = () => Object.fromEntries(Object.keys(SENSOR_UNITS).map((f) => [f, null])) as Record<SensorField, never>;
    this.#snapshot = { takenAt: new Date(input.fromMs).toISOString(), values: empty(), readAtMs: empty() };
    this.#on = input.initial.on;
    this.#openPct = this.#on ? 100 : 0;
    this.#sinceMs = input.initial.sinceMs;
    this.#lastAtMs = input.fromMs;
    this.#timeline = [{ at: new Date(input.fromMs).toISOString(), status: statusFor(input.device.deviceType, this.#on), reason: 'state at the start of the window' }];
    // The moments a sensor was declared faulted: the live runner evaluates at once then.
    this.#faultStarts = input.faults.map((f) => f.fromMs).filter((ms) => ms >= input.fromMs && ms <= input.toMs).sort((a, b) => a - b);
    const { device, rules, climate } = input;
    this.#ruleDevice = { deviceType: device.deviceType, autoMode: true, automationRules: rules, sensorLossAction: device.sensorLossAction, sensorLossDutyPct: device.sensorLossDutyPct, isOn: this.#on, sinceMs: this.#sinceMs, openPct: this.#openPct };
    this.#ruleInput = {
      device: this.#ruleDevice,
      snapshot: this.#snapshot,
      deviceSettings: input.deviceSettings,
      nowMs: input.fromMs,
      faultedFields: this.#noFaults,
      site: input.site,
      climate: null,
      windowSafePosition: climate?.windowSafePosition ?? 'closed',
    };
    const program = input.device.deviceType === 'WATER_PUMP' ? input.rules.irrigation : null;
    this.#irrigation = program
      ? new IrrigationReplay({ program, tankLowLevelCm: input.deviceSettings.tankLowLevelCm, site: input.site, initialOn: this.#on, fromMs: input.fromMs })
      : null;
  }

  /**
   * Folds the next reading in time order, evaluating once per sampling tick. Nothing of it is kept but its
   * values, so the readings may come in one object refilled each time (RecordedReadings.forEachBetween).
   */
  add(row: Readonly<RecordedReading>): void {
    if (row.takenAtMs - this.#tickStartMs >= this.#input.tickGapMs) {
      this.#flushTick();
      this.#tickStartMs = row.takenAtMs;
    }
    this.#tickEndMs = row.takenAtMs;
    for (const field of SENSOR_FIELDS[row.sensorType]) {
      const column = COLUMN[field];
      const value = column ? (row[column] as number | null) : null;
      if (value === null) continue;
      this.#snapshot.values[field] = value;
      this.#snapshot.readAtMs[field] = row.takenAtMs;
    }
  }

  finish(): AutomationPreview {
    this.#flushTick();
    while (this.#nextFault < this.#faultStarts.length) this.#evaluateAt(this.#faultStarts[this.#nextFault++]!);
    const { toMs } = this.#input;
    for (const s of this.#irrigation?.finish(toMs, this.#snapshot, this.#faultedAt(toMs)) ?? []) this.#switch(s.atMs, s.on, s.reason);
    const onSeconds = this.#onSeconds + (this.#on ? (toMs - this.#lastAtMs) / 1000 : 0);
    const flow = this.#input.device.flowLitresPerMinute ?? null;
    return {
      switches: this.#timeline.length - 1,
      onSeconds: Math.round(onSeconds),
      energyWh: Math.round(((onSeconds * this.#input.device.powerW) / 3600) * 10) / 10,
      timeline: this.#timeline,
      ...(this.#irrigation
        ? {
            irrigation: {
              pulses: this.#pulses,
              runSeconds: Math.round(onSeconds),
              litres: flow === null ? null : Math.round((onSeconds / 60) * flow * 100) / 100,
              noEffectCycles: this.#irrigation.noEffectCycles,
            },
          }
        : {}),
    };
  }

  #flushTick(): void {
    if (this.#tickEndMs === null) return;
    while (this.#nextFault < this.#faultStarts.length && this.#faultStarts[this.#nextFault]! < this.#tickEndMs) this.#evaluateAt(this.#faultStarts[this.#nextFault++]!);
    this.#evaluateAt(this.#tickEndMs);
    this.#tickEndMs = null;
  }

  #faultedAt(atMs: number): ReadonlySet<SensorField> {
    if (this.#input.faults.length === 0) return this.#noFaults;
    return new Set(this.#input.faults.filter((f) => f.fromMs <= atMs && (f.toMs === null || atMs < f.toMs)).flatMap((f) => SENSOR_FIELDS[f.sensorType]));
  }

  #evaluateAt(nowMs: number): void {
    if (this.#irrigation) {
      for (const s of this.#irrigation.evaluate(nowMs, this.#snapshot, this.#faultedAt(nowMs))) this.#switch(s.atMs, s.on, s.reason);
      return;
    }
    const { device, rules, climate } = this.#input;
    this.#ruleDevice.isOn = this.#on;
    this.#ruleDevice.sinceMs = this.#sinceMs;
    this.#ruleDevice.openPct = this.#openPct;
    this.#ruleInput.nowMs = nowMs;
    this.#ruleInput.faultedFields = this.#faultedAt(nowMs);
    // Recorded history was taken on a synchronised clock (its readings carry wall-clock times).
    this.#ruleInput.climate = climate && rules.follow ? targetsAt(climate, nowMs, this.#input.site, true, this.#days) : null;
    const decision = evaluateRules(this.#ruleInput);
    if (decision.desired === 'hold') return;
    // A window that only moves (40 % to 60 %) is a step of the timeline too, not a switch of the relay kind.
    const moves = decision.openPct !== undefined && decision.desired === 'on' && this.#on && decision.openPct !== this.#openPct;
    if (moves) {
      this.#openPct = decision.openPct!;
      this.#timeline.push({ at: new Date(nowMs).toISOString(), status: statusFor(device.deviceType, true), reason: decision.reason });
      return;
    }
    if ((decision.desired === 'on') === this.#on) return;
    this.#openPct = decision.desired === 'on' ? (decision.openPct ?? 100) : 0;
    this.#switch(nowMs, decision.desired === 'on', decision.reason);
  }

  #switch(nowMs: number, on: boolean, reason: string): void {
    if (this.#on) this.#onSeconds += (nowMs - this.#lastAtMs) / 1000;
    if (on) this.#pulses++;
    this.#lastAtMs = nowMs;
    this.#on = on;
    this.#sinceMs = nowMs;
    this.#timeline.push({ at: new Date(nowMs).toISOString(), status: statusFor(this.#input.device.deviceType, on), reason });
  }
}

/** The whole replay at once (tests, small windows). */
export function replayRules(input: ReplayInput): AutomationPreview {
  const replay = new Replay(input);
  for (const reading of input.readings) replay.add(reading);
  return replay.finish();
}
