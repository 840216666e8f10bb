import Type from 'typebox';
import { DEVICE_ID_PATTERN, Envelope, VisibleText } from '../contract/common.ts';
import { AddableDeviceType, AutomationPreview, AutomationRules, ControlAction, ControlLog, ControlSource, Device, DeviceStats, DeviceType, IrrigationProgram, Schedule, SensorLossAction } from '../contract/device.ts';

export const DeviceIdParams = Type.Object({
  deviceId: Type.String({ minLength: 1, maxLength: 64, pattern: DEVICE_ID_PATTERN }),
});

const DeviceName = VisibleText({ maxLength: 100 });
const Location = VisibleText({ maxLength: 100 });
const Power = Type.Number({ minimum: 0, maximum: 100000 });
const FlowLitresPerMinute = Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 1000 }), Type.Null()]);
const OutputId = Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]);

export const AddDeviceBody = Type.Object(
  {
    deviceName: DeviceName,
    deviceId: DeviceIdParams.properties.deviceId,
    deviceType: AddableDeviceType,
    location: Type.Optional(Location),
    powerConsumption: Type.Optional(Power),
    outputId: Type.Optional(OutputId),
  },
  { additionalProperties: false },
);

export const UpdateDeviceBody = Type.Object(
  {
    deviceName: Type.Optional(DeviceName),
    location: Type.Optional(Location),
    powerConsumption: Type.Optional(Power),
    outputId: Type.Optional(OutputId),
    /** Pumps: litres per minute while running (water accounting); null falls back to the output's config. */
    flowLitresPerMinute: Type.Optional(FlowLitresPerMinute),
  },
  { additionalProperties: false },
);

export const ControlBody = Type.Object({ action: ControlAction });

const Percent = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]);
const AnyNumber = Type.Union([Type.Number({ minimum: -100, maximum: 200 }), Type.Null()]);
/** The six threshold rules, each in its own range; `offAt` (each rule's release point) takes the same. */
const ruleNumbers = () => ({
  temperatureHigh: Type.Optional(AnyNumber),
  temperatureLow: Type.Optional(AnyNumber),
  humidityHigh: Type.Optional(Percent),
  humidityLow: Type.Optional(Percent),
  soilMoistureLow: Type.Optional(Percent),
  lightLevelLow: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 200000 }), Type.Null()])),
});
const AutomationRulesBody = Type.Object(
  {
    ...ruleNumbers(),
    schedule: Type.Optional(Type.Union([Schedule, Type.Null()])),
    // The domain checks that each release point lies on the right side of its rule.
    offAt: Type.Optional(Type.Object(ruleNumbers(), { additionalProperties: false })),
    // WATER_PUMP only; the domain checks the fields against each other (irrigation/validate.ts).
    irrigation: Type.Optional(Type.Union([IrrigationProgram, Type.Null()])),
    // Following the climate program (docs/climate.md); the domain checks that a stage 2 has its stage 1.
    follow: AutomationRules.properties.follow,
    stage: AutomationRules.properties.stage,
    stage2OffsetC: AutomationRules.properties.stage2OffsetC,
    proportionalBandC: AutomationRules.properties.proportionalBandC,
    heatingCycleMinutes: AutomationRules.properties.heatingCycleMinutes,
  },
  { additionalProperties: false },
);

export const AutomationBody = Type.Object(
  {
    automationRules: Type.Optional(AutomationRulesBody),
    autoMode: Type.Optional(Type.Boolean()),
    sensorLossAction: Type.Optional(SensorLossAction),
    /** Required with sensorLossAction 'duty' (0-100 % of each 10-minute cycle); null or absent otherwise. */
    sensorLossDutyPct: Type.Optional(Percent),
  },
  { additionalProperties: false },
);

/** The rules to try (unset fields keep the device's own) over the last `hours` of recorded readings. */
export const PreviewBody = Type.Object(
  {
    automationRules: AutomationRulesBody,
    hours: Type.Integer({ minimum: 1, maximum: 168 }),
  },
  { additionalProperties: false },
);
export const PreviewReply = Envelope(AutomationPreview);

/** Newest first; `source` keeps one kind of cause, `before` pages back (entries strictly older). */
export const LogQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  source: Type.Optional(ControlSource),
  before: Type.Optional(Type.String({ format: 'date-time' })),
  /** With `before`: the `_id` of the oldest entry shown, so an entry sharing its millisecond is not skipped. */
  beforeId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
});

export const DeviceReply = Envelope(Device);
export const DeviceListReply = Envelope(Type.Array(Device));
export const StatsReply = Envelope(DeviceStats);
export const LogReply = Envelope(Type.Array(ControlLog));
export const ControlReply = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ device: Device, controlLog: ControlLog }),
  controlLog: ControlLog,
});
export const FreeOutputsReply = Envelope(
  Type.Array(Type.Object({ outputId: Type.String(), kind: Type.Union([Type.Literal('relay'), Type.Literal('servo')]), type: DeviceType, pin: Type.Integer() })),
);
export const QuickActionReply = Envelope(
  Type.Object({
    devicesTurnedOff: Type.Optional(Type.Integer()),
    autoModeDisabled: Type.Optional(Type.Integer()),
    devicesEnabled: Type.Optional(Type.Integer()),
    powerSavedW: Type.Optional(Type.Number()),
  }),
);
export const EmptyReply = Envelope(Type.Null());

/**
 * The websocket `device-control` command (docs/decisions.md: same rules as REST, so an unknown key is
 * refused as in a body). `extras` is the specification's free-form record: its keys are not checked.
 */
export const DeviceControlCommand = Type.Object(
  {
    deviceId: DeviceIdParams.properties.deviceId,
    action: ControlAction,
    greenhouseId: Type.String({ minLength: 1, maxLength: 64 }),
    extras: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
