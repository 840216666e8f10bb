import Type, { type Static } from 'typebox';
import { IsoTimestamp, VisibleText } from './common.ts';

/**
 * Climate programs (docs/climate.md): targets by time of day that the equipment follows. A period starts
 * at a local clock time `HH:MM` or at a sun event `sunrise±m` / `sunset±m`; over its first `rampMinutes`
 * the targets move linearly from the previous period's to its own.
 */
export const PERIOD_START_PATTERN = '^(([01][0-9]|2[0-3]):[0-5][0-9]|(sunrise|sunset)([+-][0-9]{1,3})?)$';
export const MAX_PERIODS = 8;

const TemperatureC = Type.Number({ minimum: -20, maximum: 60 });

export const ClimatePeriod = Type.Object(
  {
    start: Type.String({ pattern: PERIOD_START_PATTERN, description: 'HH:MM, sunrise, sunset, sunrise+30, sunset-15' }),
    heatBelowC: TemperatureC,
    ventAboveC: TemperatureC,
    humidityAbovePct: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()])),
    rampMinutes: Type.Integer({ minimum: 0, maximum: 720 }),
  },
  { additionalProperties: false },
);
export type ClimatePeriod = Static<typeof ClimatePeriod>;

const Periods = Type.Array(ClimatePeriod, { minItems: 1, maxItems: MAX_PERIODS });

/** A grow stage: from `fromDay` of the crop (day 1 = its start date) these periods replace the base ones. */
export const GrowStage = Type.Object(
  {
    name: VisibleText({ maxLength: 40 }),
    fromDay: Type.Integer({ minimum: 1, maximum: 1000 }),
    periods: Periods,
    /** Hours the lights following the program are on each day, from the first period's start; null: lights not driven. */
    photoperiodHours: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 24 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type GrowStage = Static<typeof GrowStage>;

export const Crop = Type.Object(
  {
    name: VisibleText({ maxLength: 60 }),
    /** A real date from 2000-01-01 to a year from today (validate.ts). */
    startDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, local date' }),
  },
  { additionalProperties: false },
);
export type Crop = Static<typeof Crop>;

/** Where the roof window goes when the program cannot be followed (no fresh air temperature). */
export const WindowSafePosition = Type.Union([Type.Literal('closed'), Type.Literal('open')]);
export type WindowSafePosition = Static<typeof WindowSafePosition>;

export const ClimateProgram = Type.Object(
  {
    periods: Periods,
    windowSafePosition: Type.Optional(WindowSafePosition),
    crop: Type.Optional(Type.Union([Crop, Type.Null()])),
    stages: Type.Optional(Type.Array(GrowStage, { maxItems: 12 })),
  },
  { additionalProperties: false },
);
export type ClimateProgram = Static<typeof ClimateProgram>;

/** The targets in force now (GET /api/climate/:greenhouseId/now). */
export const ClimateNow = Type.Object({
  /** Index of the period in force (ramping into it or holding it); null without a program or a trusted clock. */
  period: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  heatBelowC: Type.Union([Type.Number(), Type.Null()]),
  ventAboveC: Type.Union([Type.Number(), Type.Null()]),
  humidityAbovePct: Type.Union([Type.Number(), Type.Null()]),
  /** When the targets next start to change (the next start of another period); null when none starts within two days (one period). */
  nextChangeAt: Type.Union([IsoTimestamp, Type.Null()]),
  /** True while the targets ramp from one period's into the next's. */
  ramping: Type.Boolean(),
  /** False while the wall clock is not synchronised: the program then holds its safe targets. */
  clockSynchronised: Type.Boolean(),
  /** The grow stage in force and the crop's day, when a crop is set. */
  stage: Type.Union([Type.Object({ name: Type.String(), day: Type.Integer() }), Type.Null()]),
  /** Today's sun times at the site (for the editor's curve); null without a site. */
  sun: Type.Union([Type.Object({ sunrise: Type.Union([IsoTimestamp, Type.Null()]), sunset: Type.Union([IsoTimestamp, Type.Null()]) }), Type.Null()]),
  /** A grower's sentence: which period, or why the safe targets hold. */
  text: Type.String(),
});
export type ClimateNow = Static<typeof ClimateNow>;

export const ClimateCurvePoint = Type.Object({ at: IsoTimestamp, heatBelowC: Type.Number(), ventAboveC: Type.Number() });
export type ClimateCurvePoint = Static<typeof ClimateCurvePoint>;

/** What a device in auto mode may follow of the program; 'light': the grow stage's photoperiod. */
export const ClimateFollow = Type.Union([Type.Literal('heat'), Type.Literal('vent'), Type.Literal('cool'), Type.Literal('dehumidify'), Type.Literal('light')]);
export type ClimateFollow = Static<typeof ClimateFollow>;
export const DEFAULT_STAGE2_OFFSET_C = 2;
export const DEFAULT_PROPORTIONAL_BAND_C = 4;
