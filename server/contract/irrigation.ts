import Type, { type Static } from 'typebox';

/** Where a pump's program stands: idle (waiting for dry soil), pulse, soak, or paused by IRRIGATION_NO_EFFECT. */
export const IrrigationPhase = Type.Union([Type.Literal('idle'), Type.Literal('pulse'), Type.Literal('soak'), Type.Literal('paused')]);
export type IrrigationPhase = Static<typeof IrrigationPhase>;

/** One local day of a pump's water: switch-ons, run time and litres (run time × flow). */
export const WaterDay = Type.Object({
  date: Type.String({ description: 'YYYY-MM-DD, gateway local time' }),
  pulses: Type.Integer({ minimum: 0 }),
  runSeconds: Type.Number({ minimum: 0 }),
  /** Null when the pump has no flowLitresPerMinute. */
  litres: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
});
export type WaterDay = Static<typeof WaterDay>;

/** The alert a program raises when its pulses did not move the probe; the program waits until it is resolved. */
export const IRRIGATION_NO_EFFECT = 'IRRIGATION_NO_EFFECT';
/** The least rise (percentage points) a finished cycle must show, or it had no effect. */
export const NO_EFFECT_RISE_PCT = 2;
