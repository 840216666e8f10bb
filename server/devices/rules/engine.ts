import type { AutomationRules, DeviceType } from '../../contract/device.ts';
import { STALE_AFTER_MS, type SensorSnapshot } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import { configuredRules, shapeOf, type Rule } from './rule-kinds.ts';

/**
 * The automation rule engine: a pure function of the device, the newest readings, the device settings
 * and the time. No I/O, so it is tested over scripted readings and reused by "Optimize Power".
 *
 * - A device in auto mode wants to be on when ANY configured rule is met and off when none is.
 * - Hysteresis: an 'above' rule (e.g. temperatureHigh 30, band 0.5) is met from > 30 while the device
 *   is off, and stays met while the device is on until the value falls below 29.5; 'below' rules
 *   mirror this. So a noisy signal around a threshold switches at most once per band crossing.
 * - Minimum on/off times: a switch is held back until the device has been in its state long enough.
 * - A rule whose input is missing or stale (older than STALE_AFTER_MS) is not met, and when no other
 *   rule is met the device HOLDS its state: we cannot tell whether that rule would want it on, and
 *   "no automatic action on stale readings" (design.md) rules out switching in either direction.
 */
export interface RuleDevice {
  deviceType: DeviceType;
  autoMode: boolean;
  automationRules: AutomationRules;
  /** On = energised relay or open window. */
  isOn: boolean;
  /** When the device last changed state (epoch ms), null if never. */
  sinceMs: number | null;
}

export interface RuleDecision {
  desired: 'on' | 'off' | 'hold';
  /** The rule that decided (the first met rule when turning on), or null. */
  ruleName: string | null;
  reason: string;
}

export interface RuleInput {
  device: RuleDevice;
  snapshot: SensorSnapshot | null;
  deviceSettings: DeviceSettings;
  nowMs: number;
}

type RuleState = { rule: Rule; state: 'met' | 'not_met' | 'unknown'; value: number | null; unit: string };

function evaluateRule(rule: Rule, input: RuleInput): RuleState {
  const shape = shapeOf(rule, input.deviceSettings.deadband);
  const value = input.snapshot?.values[shape.field] ?? null;
  const readAt = input.snapshot?.readAt[shape.field] ?? null;
  const readAtMs = readAt === null ? NaN : Date.parse(readAt);
  if (value === null || !Number.isFinite(readAtMs) || input.nowMs - readAtMs > STALE_AFTER_MS) {
    return { rule, state: 'unknown', value, unit: shape.unit };
  }
  // Off: met strictly past the threshold. On: it keeps holding until the value is strictly back past
  // the threshold by the band (temperatureHigh 30, band 0.5: on at > 30, off at < 29.5).
  const met = input.device.isOn
    ? shape.direction === 'above' ? value >= rule.threshold - shape.band : value <= rule.threshold + shape.band
    : shape.direction === 'above' ? value > rule.threshold : value < rule.threshold;
  return { rule, state: met ? 'met' : 'not_met', value, unit: shape.unit };
}

const describe = (s: RuleState) =>
  `${s.rule.kind} ${s.rule.threshold}${s.unit}: ${s.value === null ? 'no reading' : `${round1(s.value)}${s.unit}`}`;
const round1 = (n: number) => Math.round(n * 10) / 10;

export function evaluateRules(input: RuleInput): RuleDecision {
  const { device, deviceSettings, nowMs } = input;
  if (!device.autoMode) return { desired: 'hold', ruleName: null, reason: 'auto mode is off' };
  const rules = configuredRules(device.automationRules);
  if (rules.length === 0) return { desired: 'hold', ruleName: null, reason: 'no automation rule is configured' };

  const states = rules.map((rule) => evaluateRule(rule, input));
  const met = states.find((s) => s.state === 'met');
  const unknown = states.filter((s) => s.state === 'unknown');

  let wanted: RuleDecision;
  if (met) {
    wanted = { desired: 'on', ruleName: met.rule.kind, reason: `${describe(met)} (rule met)` };
  } else if (unknown.length > 0) {
    return {
      desired: 'hold',
      ruleName: unknown[0]!.rule.kind,
      reason: `holding: no fresh reading for ${unknown.map((s) => s.rule.kind).join(', ')}`,
    };
  } else {
    wanted = { desired: 'off', ruleName: states[0]!.rule.kind, reason: `no rule met (${states.map(describe).join('; ')})` };
  }

  const wantOn = wanted.desired === 'on';
  if (wantOn !== device.isOn && device.sinceMs !== null) {
    const minSeconds = device.isOn ? deviceSettings.minOnSeconds : deviceSettings.minOffSeconds;
    const heldMs = nowMs - device.sinceMs;
    if (heldMs < minSeconds * 1000) {
      return {
        desired: 'hold',
        ruleName: wanted.ruleName,
        reason: `minimum ${device.isOn ? 'on' : 'off'} time of ${minSeconds} s not reached (${Math.floor(heldMs / 1000)} s)`,
      };
    }
  }
  return wanted;
}
