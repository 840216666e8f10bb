/**
 * The threshold rules that act on opposite sides of one quantity: a low rule must stay below its high
 * rule, or the device is on at every value (docs/decisions.md, "Bad input"). The gateway refuses such
 * rules (server/devices/rules/check-rules.ts) and the automation dialog says so before sending.
 *
 * Dependency-free on purpose: server/ and web/ both import it as a value.
 */
export const OPPOSED_RULE_PAIRS = [
  { low: 'temperatureLow', high: 'temperatureHigh', quantity: 'temperature' },
  { low: 'humidityLow', high: 'humidityHigh', quantity: 'humidity' },
] as const;
