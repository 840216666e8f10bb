/**
 * Which climate-program target each kind of device may follow (docs/climate.md, "Equipment that
 * follows"): only what the machine can physically do to the air. server/climate/follow.ts checks this
 * table against the contract's device types and follows, and the automation dialog offers only these.
 *
 * - HEATER: `heat` only; following vent or cool it would switch on when the house is hot.
 * - FAN: `vent`, `cool` (both act above the vent target) and `dehumidify` (moving air out dries it).
 * - COOLING_SYSTEM: `cool`, and `vent` as the second stage of the ventilation (docs/climate.md, stages);
 *   not `dehumidify`: an evaporative cooler adds water to the air.
 * - SERVO (the roof window): `vent` (it opens in proportion) and `dehumidify` (it opens to let moist air
 *   out); not `cool`, which would only open it fully or not at all at the vent target.
 * - LED_LIGHT: `light` (the grow stage's photoperiod).
 * - WATER_PUMP: none; a pump waters by the soil (automationRules.irrigation, docs/irrigation.md).
 *
 * Dependency-free on purpose: server/ and web/ both import it as a value.
 */
export const FOLLOWS_BY_DEVICE_TYPE = {
  HEATER: ['heat'],
  FAN: ['vent', 'cool', 'dehumidify'],
  COOLING_SYSTEM: ['cool', 'vent'],
  SERVO: ['vent', 'dehumidify'],
  LED_LIGHT: ['light'],
  WATER_PUMP: [],
} as const;

/** The one device type whose heating may run in time-proportional cycles (`heatingCycleMinutes`). */
export const HEATING_CYCLE_DEVICE_TYPE = 'HEATER';
