import Type, { type Static } from 'typebox';
import { ClimateFollow } from './climate.ts';
import { IsoTimestamp, NullableNumber } from './common.ts';

/** Types a user may add from the dashboard (docs/product.md §5). SERVO comes from the wiring config. */
export const AddableDeviceType = Type.Union([
  Type.Literal('FAN'),
  Type.Literal('WATER_PUMP'),
  Type.Literal('LED_LIGHT'),
  Type.Literal('HEATER'),
  Type.Literal('COOLING_SYSTEM'),
]);
export type AddableDeviceType = Static<typeof AddableDeviceType>;

/** Every device type: the addable ones plus the roof window's servo. */
export const DeviceType = Type.Union([...AddableDeviceType.anyOf, Type.Literal('SERVO')]);
export type DeviceType = Static<typeof DeviceType>;

export const DeviceStatus = Type.Union([
  Type.Literal('ON'),
  Type.Literal('OFF'),
  Type.Literal('OPEN'),
  Type.Literal('CLOSED'),
  Type.Literal('AUTO'),
]);
export type DeviceStatus = Static<typeof DeviceStatus>;

export const ControlAction = Type.Union([
  Type.Literal('on'),
  Type.Literal('off'),
  Type.Literal('toggle'),
  Type.Literal('turn_on'),
  Type.Literal('turn_off'),
  Type.Literal('open'),
  Type.Literal('close'),
]);
export type ControlAction = Static<typeof ControlAction>;

/**
 * One end of a schedule window: a local clock time `HH:MM`, or `sunrise`/`sunset` with an optional
 * offset in minutes (`sunrise+30`, `sunset-15`), which needs the site (systemSettings.site, Settings > System).
 */
export const SCHEDULE_TIME_PATTERN = '^(([01][0-9]|2[0-3]):[0-5][0-9]|(sunrise|sunset)([+-][0-9]{1,3})?)$';
export const ScheduleTime = Type.String({ pattern: SCHEDULE_TIME_PATTERN, description: 'HH:MM, sunrise, sunset, sunrise+30, sunset-15' });

/** The window in which the device's rules act; outside it the device is off. `from` may be after `to` (across midnight). */
export const Schedule = Type.Object({ from: ScheduleTime, to: ScheduleTime }, { additionalProperties: false });
export type Schedule = Static<typeof Schedule>;

/**
 * A WATER_PUMP's soil-driven program (docs/irrigation.md): below `startBelowPct` it waters in pulses of
 * `pulseSeconds` with `soakMinutes` between them, until the probe reads `targetPct` or `maxPulses` pulses
 * were given; never outside `window`, past `maxRunSecondsPerDay` of run time in the local day, or with
 * a low or unknown tank. `fallbackEveryHours`: with the probe lost, one pulse every N hours (off when
 * absent or null).
 */
export const IrrigationProgram = Type.Object(
  {
    startBelowPct: Type.Number({ minimum: 0, maximum: 100 }),
    targetPct: Type.Number({ minimum: 0, maximum: 100 }),
    pulseSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
    soakMinutes: Type.Integer({ minimum: 0, maximum: 1440 }),
    maxPulses: Type.Integer({ minimum: 1, maximum: 50 }),
    maxRunSecondsPerDay: Type.Integer({ minimum: 1, maximum: 86400 }),
    window: Type.Optional(Type.Union([Schedule, Type.Null()])),
    fallbackEveryHours: Type.Optional(Type.Union([Type.Number({ minimum: 1, maximum: 168 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type IrrigationProgram = Static<typeof IrrigationProgram>;

/**
 * Where each threshold rule lets go: the reading at which a rule that switched the device on releases it
 * (a band: "heat below 18, stop at 20"). Absent or null: the threshold plus the global deadband of
 * deviceSettings. A *Low rule's offAt is above its threshold, a *High rule's below it.
 */
export const RuleOffAt = Type.Object(
  {
    temperatureHigh: Type.Optional(NullableNumber),
    temperatureLow: Type.Optional(NullableNumber),
    humidityHigh: Type.Optional(NullableNumber),
    humidityLow: Type.Optional(NullableNumber),
    soilMoistureLow: Type.Optional(NullableNumber),
    lightLevelLow: Type.Optional(NullableNumber),
  },
  { additionalProperties: false },
);
export type RuleOffAt = Static<typeof RuleOffAt>;

/** Each rule is a number or null (disabled); `schedule` null means always. */
export const AutomationRules = Type.Object({
  temperatureHigh: NullableNumber,
  temperatureLow: NullableNumber,
  humidityHigh: NullableNumber,
  humidityLow: NullableNumber,
  soilMoistureLow: NullableNumber,
  lightLevelLow: NullableNumber,
  schedule: Type.Union([Schedule, Type.Null()]),
  offAt: Type.Optional(RuleOffAt),
  /** WATER_PUMP only: the pulse-and-soak program; absent or null when the pump has none. */
  irrigation: Type.Optional(Type.Union([IrrigationProgram, Type.Null()])),
  /** Follow the greenhouse's climate program (docs/climate.md) instead of, or beside, the thresholds. */
  follow: Type.Optional(Type.Union([ClimateFollow, Type.Null()])),
  /** 1 (default) or 2: stage 2 joins when the error exceeds stage2OffsetC; it needs a stage 1 of the same follow. */
  stage: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
  stage2OffsetC: Type.Optional(Type.Number({ minimum: 0.5, maximum: 10 })),
  /** The roof window: this many °C above ventAboveC it is fully open; time-proportional heating: full on this far below heatBelowC. */
  proportionalBandC: Type.Optional(Type.Number({ minimum: 0.5, maximum: 20 })),
  /** Time-proportional heating: the cycle (minutes) whose share the heater runs by the error; null: on/off at the target. */
  heatingCycleMinutes: Type.Optional(Type.Union([Type.Integer({ minimum: 5, maximum: 60 }), Type.Null()])),
});
export type AutomationRules = Static<typeof AutomationRules>;

export const EMPTY_RULES: AutomationRules = {
  temperatureHigh: null,
  temperatureLow: null,
  humidityHigh: null,
  humidityLow: null,
  soilMoistureLow: null,
  lightLevelLow: null,
  schedule: null,
};

/**
 * What a device in auto mode does when an input of its rules is lost: 'off' (safe state), 'hold', or
 * 'duty': on for `sensorLossDutyPct` % of each 10-minute cycle from the cycle's start (frost protection).
 */
export const SensorLossAction = Type.Union([Type.Literal('off'), Type.Literal('hold'), Type.Literal('duty')]);
export type SensorLossAction = Static<typeof SensorLossAction>;

/** The length of one sensor-loss duty cycle. */
export const SENSOR_LOSS_DUTY_CYCLE_MS = 10 * 60_000;

/** What forbids switching a device on (or open). Switching off or closing is never locked. */
export const DeviceLockKind = Type.Union([
  Type.Literal('dry_run'),
  Type.Literal('run_budget'),
  Type.Literal('cutoff'),
  Type.Literal('interlock'),
  Type.Literal('maintenance'),
  Type.Literal('sensor_loss'),
  Type.Literal('min_off'),
  Type.Literal('no_reading'),
  Type.Literal('switch_rate'),
]);
export type DeviceLockKind = Static<typeof DeviceLockKind>;

/** One lock: a grower's sentence, and `until` when it ends by time (run budget, min off, switch rate). */
export const DeviceLock = Type.Object({
  kind: DeviceLockKind,
  text: Type.String(),
  until: Type.Optional(IsoTimestamp),
});
export type DeviceLock = Static<typeof DeviceLock>;

/** The configured hardware output a device drives; null when the device is unbound (drives nothing). */
export const OutputBinding = Type.Object({
  outputId: Type.String(),
  kind: Type.Union([Type.Literal('relay'), Type.Literal('servo')]),
  pin: Type.Integer(),
  available: Type.Boolean(),
});
export type OutputBinding = Static<typeof OutputBinding>;

/**
 * Why a device is in its current state: the newest control-log entry's source and reason, or a live
 * safety state (sensor-loss duty, a lockout) that explains it better.
 */
export const StateReason = Type.Object({
  source: Type.Union([Type.Literal('user'), Type.Literal('rule'), Type.Literal('safety'), Type.Literal('system'), Type.Literal('mqtt')]),
  text: Type.String(),
  since: IsoTimestamp,
});
export type StateReason = Static<typeof StateReason>;

export const Device = Type.Object({
  _id: Type.String(),
  deviceId: Type.String(),
  greenhouseId: Type.String(),
  deviceName: Type.String(),
  deviceType: DeviceType,
  status: DeviceStatus,
  powerConsumption: Type.Number({ minimum: 0 }),
  intensity: Type.Number({ minimum: 0, maximum: 100 }),
  autoMode: Type.Boolean(),
  location: Type.String(),
  lastActivated: Type.Union([IsoTimestamp, Type.Null()]),
  automationRules: AutomationRules,
  sensorLossAction: SensorLossAction,
  /** 0-100 with sensorLossAction 'duty'; null otherwise. */
  sensorLossDutyPct: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]),
  stateReason: Type.Union([StateReason, Type.Null()]),
  /** What forbids switching on now; empty when nothing does. */
  locks: Type.Array(DeviceLock),
  output: Type.Union([OutputBinding, Type.Null()]),
  /** Pumps: litres per minute while running (the device's own, else its output's config), null when unknown. */
  flowLitresPerMinute: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
  /** A roof window (SERVO): how far it is open, 0-100 %. */
  openPct: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Device = Static<typeof Device>;

/** Who or what changed a device: 'mqtt' is a command on the bridge's `/set` topic (the broker's ACL is the gate). */
export const ControlSource = StateReason.properties.source;
export type ControlSource = Static<typeof ControlSource>;

/** A switch-on refused by a lock: 409 with the lock that refused it. */
export const LockedFailureEnvelope = Type.Object({
  success: Type.Literal(false),
  message: Type.String(),
  lock: Type.Optional(DeviceLock),
  errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
});
export type LockedFailureEnvelope = Static<typeof LockedFailureEnvelope>;

/** One row of the control log: every state change, with who or what caused it. */
export const ControlLog = Type.Object({
  _id: Type.String(),
  deviceId: Type.String(),
  action: Type.String(),
  previousStatus: DeviceStatus,
  newStatus: DeviceStatus,
  source: ControlSource,
  /** Username for 'user', rule name for 'rule', interlock name for 'safety', 'mqtt' for 'mqtt'. */
  actor: Type.String(),
  reason: Type.String(),
  timestamp: IsoTimestamp,
});
export type ControlLog = Static<typeof ControlLog>;

export const DeviceTypeStats = Type.Object({
  _id: DeviceType,
  totalDevices: Type.Integer(),
  activeDevices: Type.Integer(),
  autoModeDevices: Type.Integer(),
  totalPowerConsumption: Type.Number(),
});
export const DeviceStats = Type.Object({
  overall: Type.Object({
    totalDevices: Type.Integer(),
    totalActiveDevices: Type.Integer(),
    totalAutoModeDevices: Type.Integer(),
    totalPowerConsumption: Type.Number(),
  }),
  byType: Type.Array(DeviceTypeStats),
});
export type DeviceStats = Static<typeof DeviceStats>;

/** One change of the replayed device state: `status` from `at` on, and why. */
export const PreviewStep = Type.Object({ at: IsoTimestamp, status: DeviceStatus, reason: Type.String() });
export type PreviewStep = Static<typeof PreviewStep>;

/** What the rules would have done over the recorded history (POST /api/devices/:deviceId/automation/preview). */
export const AutomationPreview = Type.Object({
  switches: Type.Integer({ minimum: 0 }),
  onSeconds: Type.Number({ minimum: 0 }),
  energyWh: Type.Number({ minimum: 0 }),
  /** The first step is the state at the start of the window; every further step is a switch. */
  timeline: Type.Array(PreviewStep),
  /** A pump with an irrigation program: its pulses, run time and litres (null without a flow rate). */
  irrigation: Type.Optional(
    Type.Object({
      pulses: Type.Integer({ minimum: 0 }),
      runSeconds: Type.Number({ minimum: 0 }),
      litres: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
      /** Cycles that reached their pulse limit without a 2-point rise (live, each would pause the program). */
      noEffectCycles: Type.Integer({ minimum: 0 }),
    }),
  ),
});
export type AutomationPreview = Static<typeof AutomationPreview>;
