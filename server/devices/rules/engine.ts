import { CLOCK_NOT_SYNCHRONISED } from '../../contract/clock.ts';
import { SENSOR_LOSS_DUTY_CYCLE_MS, type AutomationRules, type DeviceType, type SensorLossAction } from '../../contract/device.ts';
import { STALE_AFTER_MS, type SensorField, type SensorSnapshot } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import type { WindowSafePosition } from '../../contract/climate.ts';
import { fieldOf, followProgram } from '../../climate/follow.ts';
import type { ClimateTargets } from '../../climate/targets.ts';
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
 *   stays there until fresh readings return; with 'hold' it keeps its state; with 'duty' it is on for
 *   sensorLossDutyPct % of each 10-minute cycle, from the cycle's start (cycles start at multiples of
 *   10 minutes of epoch time, so the preview replays the same cycles), source 'safety'.
 * - A heater needs a fresh air temperature whatever its rules are (a schedule alone included): without
 *   one it is in sensor loss, and 'hold' counts as 'off' (a heater never runs blind; 'duty' is the
 *   frost protection).
 * - `automationRules.offAt`: where a rule that switched the device on lets go (a band: heat below 18,
 *   stop at 20). Without it the rule lets go past its threshold by the global deadband.
 */
export interface RuleDevice {
  deviceType: DeviceType;
  autoMode: boolean;
  automationRules: AutomationRules;
  /** Absent means 'off', the default. */
  sensorLossAction?: SensorLossAction;
  /** With 'duty': the share of each cycle the device is on (0-100). */
  sensorLossDutyPct?: number | null;
  /** On = energised relay or open window. */
  isOn: boolean;
  /** When the device last changed state (epoch ms), null if never. */
  sinceMs: number | null;
  /** A roof window's opening now (0-100); absent for relays. */
  openPct?: number;
}

export interface RuleDecision {
  desired: 'on' | 'off' | 'hold';
  /** The rule that decided (the first met rule when turning on, 'schedule', 'sensorLoss'), or null. */
  ruleName: string | null;
  reason: string;
  /** 'safety' for the sensor-loss fail-safe, which the control log records as a safety action. */
  source: 'rule' | 'safety';
  /** A roof window following the climate program: the opening wanted (0-100). */
  openPct?: number;
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
  /** The climate program's targets now (docs/climate.md); null or absent without a program. */
  climate?: ClimateTargets | null;
  /** Why there is a program but no targets (they failed to compute): devices following it take their sensor-loss safe state. */
  climateUnavailable?: string | null;
  /** Where a roof window following the program goes when its air temperature is lost. Default 'closed'. */
  windowSafePosition?: WindowSafePosition;
}

type RuleState = { rule: Rule; state: 'met' | 'not_met' | 'lost'; value: number | null; unit: string; lostBecause?: string };

/** A grower's words for a field: the control log and the device card say these, never the wire name. */
const FIELD_WORDS: Partial<Record<SensorField, string>> = {
  temperature: 'air temperature',
  humidity: 'humidity',
  lightIntensity: 'light',
  soilMoisture: 'soil moisture',
  waterLevel: 'tank level',
};
const wordsFor = (field: SensorField) => FIELD_WORDS[field] ?? field;

/** Why a field's input is lost (faulted, missing, stale), or null when it is fresh. */
export function lossOf(field: SensorField, input: Pick<RuleInput, 'snapshot' | 'faultedFields' | 'nowMs'>): string | null {
  const value = input.snapshot?.values[field] ?? null;
  const readAtMs = input.snapshot?.readAtMs[field] ?? NaN;
  if (input.faultedFields?.has(field)) return `${wordsFor(field)} sensor faulted`;
  if (value === null || !Number.isFinite(readAtMs)) return `no ${wordsFor(field)} reading`;
  if (input.nowMs - readAtMs > STALE_AFTER_MS) return `${wordsFor(field)} reading stale (${Math.floor((input.nowMs - readAtMs) / 60_000)} min old)`;
  return null;
}

function evaluateRule(rule: Rule, input: RuleInput): RuleState {
  const shape = shapeOf(rule, input.deviceSettings.deadband);
  const value = input.snapshot?.values[shape.field] ?? null;
  const lostBecause = lossOf(shape.field, input);
  if (lostBecause !== null || value === null) return { rule, state: 'lost', value, unit: shape.unit, lostBecause: lostBecause ?? `no ${wordsFor(shape.field)} reading` };
  const offAt = input.device.automationRules.offAt?.[rule.kind];
  // Off: met strictly past the threshold. On: with an offAt band it holds until the value reaches offAt
  // (heat below 18, stop at 20); otherwise until it is strictly back past the threshold by the deadband
  // (temperatureHigh 30, band 0.5: on at > 30, off at < 29.5).
  const met = !input.device.isOn
    ? shape.direction === 'above' ? value > rule.threshold : value < rule.threshold
    : typeof offAt === 'number'
      ? shape.direction === 'above' ? value > offAt : value < offAt
      : shape.direction === 'above' ? value >= rule.threshold - shape.band : value <= rule.threshold + shape.band;
  return { rule, state: met ? 'met' : 'not_met', value, unit: shape.unit };
}

/** The sensor-loss decision: safe state, hold, or the duty cycle (frost protection). */
function onSensorLoss(input: RuleInput, what: string, until = 'fresh readings return'): RuleDecision {
  const { device, nowMs } = input;
  const action = device.sensorLossAction ?? 'off';
  if (action === 'duty') {
    const pct = Math.min(100, Math.max(0, device.sensorLossDutyPct ?? 0));
    const onMs = (SENSOR_LOSS_DUTY_CYCLE_MS * pct) / 100;
    const intoCycleMs = ((nowMs % SENSOR_LOSS_DUTY_CYCLE_MS) + SENSOR_LOSS_DUTY_CYCLE_MS) % SENSOR_LOSS_DUTY_CYCLE_MS;
    const on = intoCycleMs < onMs;
    const minutes = round1(onMs / 60_000);
    return {
      desired: on ? 'on' : 'off',
      ruleName: 'sensorLoss',
      reason: `sensor loss (${what}): frost duty ${pct} % (on ${minutes} min of every ${SENSOR_LOSS_DUTY_CYCLE_MS / 60_000} min)`,
      source: 'safety',
    };
  }
  return { desired: 'off', ruleName: 'sensorLoss', reason: `sensor loss fail-safe (${what}): off until ${until}`, source: 'safety' };
}

/**
 * The threshold rules' decision, its reason put into words when first read. The words change with every
 * reading (the values are in them) and are read only when the device switches; a rule preview evaluates
 * every recorded tick, 600,000 for a week at 1 Hz, and the reasons it never read were a third of what
 * its worker allocated (docs/performance.md). `toJSON` gives the plain decision.
 */
class ThresholdDecision implements RuleDecision {
  readonly source = 'rule' as const;
  readonly #states: readonly RuleState[];
  readonly #met: RuleState | null;
  readonly #inWindow: string;
  #reason: string | null = null;

  /** `met`: the first met rule (desired 'on'), or null. */
  constructor(
    readonly desired: 'on' | 'off',
    readonly ruleName: string,
    states: readonly RuleState[],
    met: RuleState | null,
    inWindow: string,
  ) {
    this.#states = states;
    this.#met = met;
    this.#inWindow = inWindow;
  }

  get reason(): string {
    this.#reason ??= this.#met ? `${describe(this.#met)} (rule met)${this.#inWindow}` : `no rule met (${this.#states.map(describe).join('; ')})`;
    return this.#reason;
  }

  toJSON(): RuleDecision {
    return { desired: this.desired, ruleName: this.ruleName, reason: this.reason, source: this.source };
  }
}

const describe = (s: RuleState) =>
  `${s.rule.kind} ${s.rule.threshold}${s.unit}: ${s.value === null ? 'no reading' : `${round1(s.value)}${s.unit}`}`;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** True when the device has anything for auto mode to follow: a threshold rule, a schedule or the climate program. */
export function hasAutomation(rules: AutomationRules): boolean {
  return configuredRules(rules).length > 0 || rules.schedule !== null || Boolean(rules.follow) || Boolean(rules.irrigation);
}

export function evaluateRules(input: RuleInput): RuleDecision {
  const { device } = input;
  if (!device.autoMode) return { desired: 'hold', ruleName: null, reason: 'auto mode is off', source: 'rule' };
  const rules = configuredRules(device.automationRules);
  const schedule = device.automationRules.schedule;
  const follow = device.automationRules.follow && (input.climate || input.climateUnavailable) ? device.automationRules.follow : null;
  if (rules.length === 0 && !schedule && !follow) {
    return { desired: 'hold', ruleName: null, reason: 'no automation rule is configured', source: 'rule' };
  }

  let windowText: string | null = null;
  // A heater runs on nothing without a fresh air temperature, whatever its rules.
  const airLoss = device.deviceType === 'HEATER' ? lossOf('temperature', input) : null;
  if (schedule && input.clockSynchronised === false) {
    return { desired: device.isOn ? 'off' : 'hold', ruleName: 'schedule', reason: `${CLOCK_NOT_SYNCHRONISED}: schedule off until the time is set`, source: 'rule' };
  }
  if (schedule) {
    const state = windowAt(schedule, input.nowMs, input.site ?? null);
    windowText = describeWindow(schedule, state);
    if (state.kind !== 'inside') return withMinTimes(input, { desired: 'off', ruleName: 'schedule', reason: `outside ${windowText}`, source: 'rule' });
    if (rules.length === 0 && !follow) {
      if (airLoss !== null) return onSensorLoss(input, airLoss);
      return withMinTimes(input, { desired: 'on', ruleName: 'schedule', reason: `inside ${windowText}`, source: 'rule' });
    }
  }

  if (follow) {
    const followed = followClimate(input, follow, airLoss);
    if (followed.desired !== 'off' || rules.length === 0) return followed.source === 'safety' ? followed : withMinTimes(input, followed);
    // The program wants it off: the spec's threshold rules beside it may still want it on.
  }

  // Loops rather than map/filter/find: no closures for the engine's every tick (see ThresholdDecision).
  const states = new Array<RuleState>(rules.length);
  let met: RuleState | null = null;
  let lostCount = 0;
  for (let i = 0; i < rules.length; i++) {
    const state = (states[i] = evaluateRule(rules[i]!, input));
    if (state.state === 'met') met ??= state;
    else if (state.state === 'lost') lostCount++;
  }
  const lost = lostCount === 0 ? [] : states.filter((s) => s.state === 'lost');
  const inWindow = windowText ? ` inside ${windowText}` : '';
  // One phrase per lost input, whichever rules read it ("air temperature sensor faulted"). Built only
  // when something is lost: the engine runs every tick, and for every recorded tick of a rule preview.
  const lostWhat = lost.length === 0 && airLoss === null ? [] : [...new Set([...lost.map((s) => s.lostBecause ?? ''), ...(airLoss !== null ? [airLoss] : [])])].filter(Boolean);
  const holdAllowed = device.sensorLossAction === 'hold' && device.deviceType !== 'HEATER';
  if (lostWhat.length > 0 && !holdAllowed) return onSensorLoss(input, lostWhat.join(', '));
  let wanted: RuleDecision;
  if (met) {
    wanted = new ThresholdDecision('on', met.rule.kind, states, met, inWindow);
  } else if (lost.length > 0) {
    // 'hold': we cannot tell whether the lost rule would want the device on, so it keeps its state.
    const what = [...new Set(lost.map((s) => s.lostBecause))].join(', ');
    return { desired: 'hold', ruleName: lost[0]!.rule.kind, reason: `holding: no fresh reading for ${what}`, source: 'rule' };
  } else {
    wanted = new ThresholdDecision('off', states[0]!.rule.kind, states, null, inWindow);
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

/** A device following the climate program: its input lost (safe state or the window's safe position), else the program's decision. */
function followClimate(input: RuleInput, follow: NonNullable<AutomationRules['follow']>, airLoss: string | null): RuleDecision {
  const { device } = input;
  const field = fieldOf(follow);
  // Targets that failed to compute are an input lost like a reading: the same fail-safe.
  const lostTargets = input.climate ? null : (input.climateUnavailable ?? 'no climate targets');
  const loss = lostTargets ?? (field === null ? null : lossOf(field, input)) ?? airLoss;
  if (loss !== null) {
    if (device.deviceType === 'SERVO') {
      const open = input.windowSafePosition === 'open';
      return { desired: open ? 'on' : 'off', openPct: open ? 100 : 0, ruleName: 'sensorLoss', reason: `sensor loss fail-safe (${loss}): window to its safe position (${open ? 'open' : 'closed'})`, source: 'safety' };
    }
    if (device.sensorLossAction === 'hold' && device.deviceType !== 'HEATER') return { desired: 'hold', ruleName: 'climate', reason: `holding: ${lostTargets ?? `no fresh reading for ${loss}`}`, source: 'rule' };
    return onSensorLoss(input, loss, lostTargets ? 'the targets return' : undefined);
  }
  const value = field === null ? NaN : input.snapshot!.values[field]!;
  const decision = followProgram({
    deviceType: device.deviceType,
    rules: device.automationRules,
    targets: input.climate!,
    value,
    isOn: device.isOn,
    openPct: device.openPct ?? (device.isOn ? 100 : 0),
    deadband: input.deviceSettings.deadband,
    minOnSeconds: input.deviceSettings.minOnSeconds,
    minOffSeconds: input.deviceSettings.minOffSeconds,
    nowMs: input.nowMs,
  });
  return { ...decision, ruleName: 'climate', source: 'rule' };
}
