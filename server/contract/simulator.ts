import Type, { type Static } from 'typebox';
import { IsoTimestamp, NullableNumber } from './common.ts';
import { SensorType } from './reading.ts';

export const SimulatedFault = Type.Union([Type.Literal('silent'), Type.Literal('stuck'), Type.Literal('none')]);
export type SimulatedFault = Static<typeof SimulatedFault>;

/** GET /api/simulator (simulator mode, admins): the model's true state beside what the sensors report. */
export const SimulatorState = Type.Object({
  at: IsoTimestamp,
  /** The true values inside, without sensor noise or faults. */
  inside: Type.Object({
    temperatureC: Type.Number(),
    humidityPct: Type.Number(),
    lightLux: Type.Number(),
    soilMoisturePct: Type.Number(),
    vpdKpa: Type.Number(),
    dewPointC: NullableNumber,
    /** Water is condensing on the glazing. */
    condensing: Type.Boolean(),
  }),
  outside: Type.Object({ temperatureC: Type.Number(), humidityPct: Type.Number(), cloudCover: Type.Number() }),
  tank: Type.Object({ levelCm: Type.Number(), depthCm: Type.Number() }),
  faults: Type.Array(Type.Object({ sensor: SensorType, fault: SimulatedFault })),
  /** Faults injected into single sensor instances (the others of their zone go on). */
  instanceFaults: Type.Array(Type.Object({ sensorId: Type.String(), fault: SimulatedFault })),
  /** What the switched-on outputs are doing to the house (heater, fan, cooling, pump, lights, window). */
  activeEffects: Type.Array(Type.String()),
});
export type SimulatorState = Static<typeof SimulatorState>;

/** `sensor` faults every instance of that zone; `sensorId` one instance. Exactly one of the two. */
export const SimulatorFaultBody = Type.Object(
  { sensor: Type.Optional(SensorType), sensorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), fault: SimulatedFault },
  { additionalProperties: false },
);
export type SimulatorFaultBody = Static<typeof SimulatorFaultBody>;

export const SimulatorTankBody = Type.Object({ levelCm: Type.Number({ minimum: 0, maximum: 400 }) }, { additionalProperties: false });
export type SimulatorTankBody = Static<typeof SimulatorTankBody>;

/** POST /api/simulator/soil: sets the simulated bed's true soil moisture (a dry bed to water, a wet one). */
export const SimulatorSoilBody = Type.Object({ moisturePct: Type.Number({ minimum: 0, maximum: 100 }) }, { additionalProperties: false });
export type SimulatorSoilBody = Static<typeof SimulatorSoilBody>;
