import { CLOCK_NOT_SYNCHRONISED } from '../../contract/clock.ts';
import type { AutomationRules, DeviceType, SensorLossAction } from '../../contract/device.ts';
import { STALE_AFTER_MS, type SensorField, type SensorSnapshot } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import { configuredRules, shapeOf, type Rule } from './rule-kinds.ts';
import { describeWindow, windowAt, type Site } from './schedule.ts';

/**
 * The automation rule engine: a pure function of the device, the newest readings, the device settings
 * and the time. No I/O, so it is tested over scripted readings, replayed over recorded history by the
 * rule preview, and reused by "Optimize Power".
 *
 * - A device in auto mode wants to be on when ANY configured rule is met and off when none is.
 * - Hysteresis: an 'above' rule (e.g. temperatureHigh 30, band 0.5) is met from > 30 while the device
 *   is off, and stays met while the device is on until the value falls below 29.5; 'below' rules
 *   mirror this. So a noisy signal around a threshold switches at most once per band crossing.
 * - Minimum on/off times: a rule's switch is held back until the device has been in its state long enough.
 * - Schedule (`automationRules.schedule`): outside the window the device is off; inside it the rules
 *   act, and a device whose only rule is the schedule is on (a photoperiod). Until the wall clock is
 *   synchronised the window is unknown, so the device is off, at once (docs/hardware.md, "Time without
 *   a clock": after a power cut a Pi without a real-time clock runs on the time it saved at shutdown).
 * - Sensor loss: an input of a configured rule that is missing, stale (older than STALE_AFTER_MS) or
 *   whose sensor is declared faulted is lost. With sensorLossAction 'off' the device goes to its safe
 *   state at once (source 'safety', no minimum on time: a heater must not run blind for 30 s more) and
 *   stays there until fresh readings return; with 'hold' it keeps its state.
 */
export interface RuleDevice {
  deviceType: DeviceType;
  autoMode: boolean;
  automationRules: AutomationRules;
  /** Absent means 'off', the default. */
  sensorLossAction?: SensorLossAction;
  /** On = energised relay or open window. */
  isOn: boolean;
  /** When the device last changed state (epoch ms), null if never. */
  sinceMs: number | null;
}

export interface RuleDecision {
  desired: 'on' | 'off' | 'hold';
  /** The rule that decided (the first met rule when turning on, 'schedule', 'sensorLoss'), or null. */
  ruleName: string | null;
  reason: string;
  /** 'safety' for the sensor-loss fail-safe, which the control log records as a safety action. */
  source: 'rule' | 'safety';
}

export interface RuleInput {
  device: RuleDevice;
  snapshot: SensorSnapshot | null;
  deviceSettings: DeviceSettings;
  nowMs: number;
  /** Fields whose sensor is declared faulted now (not answering or stuck): lost even if recently read. */
  faultedFields?: ReadonlySet<SensorField>;
  /** Config `site`, for sunrise/sunset schedules; null when not configured. */
  site?: Site | null;
  /** False while the wall clock is not synchronised: a schedule cannot know the time of day. Default: true. */
  clockSynchronised?: boolean;
}

type RuleState = { rule: Rule; state: 'met' | 'not_met' | 'lost'; value: number | null; unit: string; lostBecause?: string };

function evaluateRule(rule: Rule, input: RuleInput): RuleState {
  const shape = shapeOf(rule, input.deviceSettings.deadband);
  const value = input.snapshot?.values[shape.field] ?? null;
  const readAt = input.snapshot?.readAt[shape.field] ?? null;
  const readAtMs = readAt === null ? NaN : Date.parse(readAt);
  if (input.faultedFields?.has(shape.field)) return { rule, state: 'lost', value, unit: shape.unit, lostBecause: `${shape.field} sensor faulted` };
  if (value === null || !Number.isFinite(readAtMs)) return { rule, state: 'lost', value, unit: shape.unit, lostBecause: `no ${shape.field} reading` };
  if (input.nowMs - readAtMs > STALE_AFTER_MS) {
    const minutes = Math.floor((input.nowMs - readAtMs) / 60_000);
    return { rule, state: 'lost', value, unit: shape.unit, lostBecause: `${shape.field} reading stale (${minutes} min old)` };
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

/** True when the device has anything for auto mode to follow: a threshold rule or a schedule. */
export function hasAutomation(rules: AutomationRules): boolean {
  return configuredRules(rules).length > 0 || rules.schedule !== null;
}

export function evaluateRules(input: RuleInput): RuleDecision {
  const { device } = input;
  if (!device.autoMode) return { desired: 'hold', ruleName: null, reason: 'auto mode is off', source: 'rule' };
  const rules = configuredRules(device.automationRules);
  const schedule = device.automationRules.schedule;
  if (rules.length === 0 && !schedule) {
    return { desired: 'hold', ruleName: null, reason: 'no automation rule is configured', source: 'rule' };
  }

  let windowText: string | null = null;
  if (schedule && input.clockSynchronised === false) {
    return { desired: device.isOn ? 'off' : 'hold', ruleName: 'schedule', reason: `${CLOCK_NOT_SYNCHRONISED}: schedule off until the time is set`, source: 'rule' };
  }
  if (schedule) {
    const state = windowAt(schedule, input.nowMs, input.site ?? null);
    windowText = describeWindow(schedule, state);
    if (state.kind !== 'inside') return withMinTimes(input, { desired: 'off', ruleName: 'schedule', reason: `outside ${windowText}`, source: 'rule' });
    if (rules.length === 0) return withMinTimes(input, { desired: 'on', ruleName: 'schedule', reason: `inside ${windowText}`, source: 'rule' });
  }

  const states = rules.map((rule) => evaluateRule(rule, input));
  const lost = states.filter((s) => s.state === 'lost');
  const met = states.find((s) => s.state === 'met');
  const inWindow = windowText ? ` inside ${windowText}` : '';
  if (lost.length > 0 && device.sensorLossAction !== 'hold') {
    const what = lost.map((s) => `${s.rule.kind} (${s.lostBecause})`).join(', ');
    return { desired: 'off', ruleName: 'sensorLoss', reason: `sensor loss fail-safe: input lost for ${what}; off until fresh readings return`, source: 'safety' };
  }
  let wanted: RuleDecision;
  if (met) {
    wanted = { desired: 'on', ruleName: met.rule.kind, reason: `${describe(met)} (rule met)${inWindow}`, source: 'rule' };
  } else if (lost.length > 0) {
    // 'hold': we cannot tell whether the lost rule would want the device on, so it keeps its state.
    const what = lost.map((s) => `${s.rule.kind} (${s.lostBecause})`).join(', ');
    return { desired: 'hold', ruleName: lost[0]!.rule.kind, reason: `holding: no fresh reading for ${what}`, source: 'rule' };
  } else {
    wanted = { desired: 'off', ruleName: states[0]!.rule.kind, reason: `no rule met (${states.map(describe).join('; ')})`, source: 'rule' };
  }
  return withMinTimes(input, wanted);
}

/** Holds a rule's switch back until the device has been in its current state for its minimum time. */
function withMinTimes({ device, deviceSettings, nowMs }: RuleInput, wanted: RuleDecision): RuleDecision {
  const wantOn = wanted.desired === 'on';
  if (wantOn === device.isOn || device.sinceMs === null) return wanted;
  const minSeconds = device.isOn ? deviceSettings.minOnSeconds : deviceSettings.minOffSeconds;
  const heldMs = nowMs - device.sinceMs;
  if (heldMs >= minSeconds * 1000) return wanted;
  return {
    desired: 'hold',
    ruleName: wanted.ruleName,
    reason: `minimum ${device.isOn ? 'on' : 'off'} time of ${minSeconds} s not reached (${Math.floor(heldMs / 1000)} s)`,
    source: 'rule',
  };
}
