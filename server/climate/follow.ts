import { DEFAULT_PROPORTIONAL_BAND_C, DEFAULT_STAGE2_OFFSET_C, type ClimateFollow } from '../contract/climate.ts';
import type { AutomationRules, DeviceType } from '../contract/device.ts';
import type { SensorField } from '../contract/reading.ts';
import type { DeviceSettings } from '../contract/settings.ts';
import type { ClimateTargets } from './targets.ts';
import { FOLLOWS_BY_DEVICE_TYPE, HEATING_CYCLE_DEVICE_TYPE } from '../../common/climate-follow.ts';

/**
 * How a device follows the climate program (docs/climate.md), a pure function of its rules, the
 * targets in force and the newest reading:
 * - `heat`: on below heatBelowC, held on until the deadband above it; stage 2 only once the air is
 *   stage2OffsetC under the target. With heatingCycleMinutes the heater runs a share of each cycle,
 *   (target - air) / proportionalBandC, from the cycle's start, with no burst shorter than the minimum
 *   on time and no pause shorter than the minimum off time.
 * - `vent` and `cool` (relays): on above ventAboveC (+ stage2OffsetC for stage 2), off below it by the deadband.
 * - `vent` on a roof window (SERVO): opens in proportion, fully at proportionalBandC above the vent
 *   target, in 5 % steps that only move once the wanted opening differs by a full step (no hunting).
 * - `dehumidify`: on above humidityAbovePct (+ the stage offset, in %), off below it by the deadband.
 * - `light`: on for the grow stage's photoperiodHours from the day's first period; off without one.
 */
export interface FollowInput {
  deviceType: DeviceType;
  rules: AutomationRules;
  targets: ClimateTargets;
  /** The reading of the followed field (fresh: the engine handles loss first); NaN for the lights. */
  value: number;
  isOn: boolean;
  /** The window's opening now (0-100). */
  openPct: number;
  deadband: DeviceSettings['deadband'];
  minOnSeconds: number;
  minOffSeconds: number;
  nowMs: number;
}

export interface FollowDecision {
  desired: 'on' | 'off';
  /** For a roof window: the opening wanted (0-100). */
  openPct?: number;
  reason: string;
}

export const OPEN_STEP_PCT = 5;

/** The quantity a follow reads; null for the lights, which follow the clock. */
export const fieldOf = (follow: ClimateFollow): SensorField | null => (follow === 'light' ? null : follow === 'dehumidify' ? 'humidity' : 'temperature');

const r1 = (n: number) => Math.round(n * 10) / 10;

export function followProgram(input: FollowInput): FollowDecision {
  const follow = input.rules.follow!;
  const stage2 = input.rules.stage === 2;
  const offset = stage2 ? (input.rules.stage2OffsetC ?? DEFAULT_STAGE2_OFFSET_C) : 0;
  const stageText = stage2 ? ` + stage 2 offset ${offset}` : '';
  const { targets, value, isOn, deadband } = input;
  switch (follow) {
    case 'heat': {
      const onBelow = targets.heatBelowC - offset;
      if (input.rules.heatingCycleMinutes) return timeProportional(input, onBelow);
      const on = isOn ? value < onBelow + deadband.temperatureC : value < onBelow;
      return { desired: on ? 'on' : 'off', reason: `climate: air ${r1(value)} °C, heat below ${targets.heatBelowC} °C${stageText} (${targets.text})` };
    }
    case 'vent':
    case 'cool': {
      const onAbove = targets.ventAboveC + offset;
      if (follow === 'vent' && input.deviceType === 'SERVO') return proportionalWindow(input, onAbove);
      const on = isOn ? value > onAbove - deadband.temperatureC : value > onAbove;
      return { desired: on ? 'on' : 'off', reason: `climate: air ${r1(value)} °C, ${follow} above ${targets.ventAboveC} °C${stageText} (${targets.text})` };
    }
    case 'dehumidify': {
      if (targets.humidityAbovePct === null) return { desired: 'off', reason: `climate: no humidity target in ${targets.text}` };
      const onAbove = targets.humidityAbovePct + offset;
      const on = isOn ? value > onAbove - deadband.humidityPct : value > onAbove;
      return { desired: on ? 'on' : 'off', reason: `climate: humidity ${r1(value)} %, dehumidify above ${targets.humidityAbovePct} %${stageText}` };
    }
    case 'light': {
      // The grow stage's photoperiod from the day's first period; no photoperiod (or no trusted clock): off.
      if (targets.lightsOn === null) return { desired: 'off', reason: `climate: no photoperiod in force (${targets.text})` };
      const stage = targets.stage ? `${targets.stage.name}, day ${targets.stage.day}` : 'program';
      return { desired: targets.lightsOn ? 'on' : 'off', reason: `climate: ${stage} photoperiod, lights ${targets.lightsOn ? 'on' : 'off'}` };
    }
    default: {
      const unknown: never = follow;
      throw new Error(`unknown follow ${String(unknown)}`);
    }
  }
}

function proportionalWindow(input: FollowInput, onAbove: number): FollowDecision {
  const band = input.rules.proportionalBandC ?? DEFAULT_PROPORTIONAL_BAND_C;
  const wanted = Math.min(100, Math.max(0, ((input.value - onAbove) / band) * 100));
  const current = input.isOn ? input.openPct : 0;
  // Move only a full step away from where it stands: a reading wobbling by 0.1 °C never moves the servo.
  const openPct = Math.abs(wanted - current) < OPEN_STEP_PCT ? current : Math.round(wanted / OPEN_STEP_PCT) * OPEN_STEP_PCT;
  return {
    desired: openPct > 0 ? 'on' : 'off',
    openPct,
    reason: `climate: air ${r1(input.value)} °C, vent above ${input.targets.ventAboveC} °C, fully open at ${r1(onAbove + band)} °C: ${openPct} % open (${input.targets.text})`,
  };
}

function timeProportional(input: FollowInput, onBelow: number): FollowDecision {
  const band = input.rules.proportionalBandC ?? DEFAULT_PROPORTIONAL_BAND_C;
  const cycleMs = input.rules.heatingCycleMinutes! * 60_000;
  const share = Math.min(1, Math.max(0, (onBelow - input.value) / band));
  let onMs = share * cycleMs;
  if (onMs < input.minOnSeconds * 1000) onMs = 0;
  else if (cycleMs - onMs < input.minOffSeconds * 1000) onMs = cycleMs;
  // Cycles start at multiples of the cycle in epoch time, so the preview replays the same cycles.
  const intoCycleMs = input.nowMs % cycleMs;
  const pct = Math.round((onMs / cycleMs) * 100);
  return {
    desired: intoCycleMs < onMs ? 'on' : 'off',
    reason: `climate: air ${r1(input.value)} °C, heat below ${input.targets.heatBelowC} °C: ${pct} % of each ${input.rules.heatingCycleMinutes} min (${input.targets.text})`,
  };
}

/** A stage 2 needs a stage 1 following the same target in the greenhouse: the message names the field. */
export function stage2Problem(device: { deviceId: string; rules: AutomationRules }, all: ReadonlyArray<{ deviceId: string; automationRules: AutomationRules }>): string | null {
  const { follow, stage } = device.rules;
  if (stage !== 2) return null;
  if (!follow) return 'automationRules.stage 2 needs automationRules.follow (heat, vent, cool or dehumidify)';
  const hasStage1 = all.some((d) => d.deviceId !== device.deviceId && d.automationRules.follow === follow && (d.automationRules.stage ?? 1) === 1);
  return hasStage1 ? null : `automationRules.stage 2 needs a stage 1 device that follows '${follow}' first`;
}

/**
 * A change that would leave another device's stage 2 without its stage 1 (this device was the last
 * stage 1 of what it followed): the message names the stranded device; null when nothing is stranded.
 */
export function strandedStage2(
  before: { deviceId: string; rules: AutomationRules },
  after: AutomationRules,
  all: ReadonlyArray<{ deviceId: string; deviceName: string; automationRules: AutomationRules }>,
): string | null {
  const follow = before.rules.follow;
  if (!follow || (before.rules.stage ?? 1) !== 1) return null;
  if (after.follow === follow && (after.stage ?? 1) === 1) return null;
  const others = all.filter((d) => d.deviceId !== before.deviceId && d.automationRules.follow === follow);
  if (others.some((d) => (d.automationRules.stage ?? 1) === 1)) return null;
  const stranded = others.find((d) => d.automationRules.stage === 2);
  return stranded ? `automationRules.follow: ${stranded.deviceName} is stage 2 of '${follow}' and needs this device as its stage 1; change it first` : null;
}

/** What each device type may follow (common/climate-follow.ts), typed by the contract: a new type or follow fails to compile until placed. */
export const FOLLOWS_OF_TYPE: Readonly<Record<DeviceType, readonly ClimateFollow[]>> = FOLLOWS_BY_DEVICE_TYPE;

const quoted = (follows: readonly ClimateFollow[]) => follows.map((f) => `'${f}'`).join(' or ');

/**
 * A follow the device cannot physically do (a heater following `vent` would switch on when the house is
 * hot), or a heating cycle on anything but a heater: the field and a sentence naming it; null when fine.
 */
export function followMisfit(deviceType: DeviceType, rules: Pick<AutomationRules, 'follow' | 'heatingCycleMinutes'>): { field: string; message: string } | null {
  const { follow, heatingCycleMinutes } = rules;
  if (follow) {
    const allowed = FOLLOWS_OF_TYPE[deviceType];
    if (!allowed.includes(follow)) {
      const may = allowed.length === 0 ? `a ${deviceType} follows no climate target${deviceType === 'WATER_PUMP' ? ' (it waters by the soil: automationRules.irrigation)' : ''}` : `a ${deviceType} may follow only ${quoted(allowed)}`;
      return { field: 'automationRules.follow', message: `automationRules.follow '${follow}' does not fit this device: ${may}` };
    }
  }
  if (heatingCycleMinutes !== undefined && heatingCycleMinutes !== null && deviceType !== HEATING_CYCLE_DEVICE_TYPE) {
    return {
      field: 'automationRules.heatingCycleMinutes',
      message: `automationRules.heatingCycleMinutes applies only to a ${HEATING_CYCLE_DEVICE_TYPE} following 'heat' (this device is a ${deviceType})`,
    };
  }
  return null;
}
