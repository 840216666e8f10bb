// Each rule as a band a grower reads ("Heat below 18 °C, stop at 20 °C"), in the chosen temperature
// unit. A rule switches on strictly past its threshold and lets go at its own off-at value, or, when
// that is not set, at the threshold plus the global deadband (server/devices/rules/engine.ts).
import type { AutomationRules, DeviceType, RuleOffAt } from '../../../../../server/contract/device.ts';
import type { DeviceSettings } from '../../../../../server/contract/settings.ts';
import type { TemperatureUnit } from '../../../units.ts';
import { toUnit, unitSymbol } from '../../../units.ts';
import type { RuleField } from '../device-ui.ts';

export interface RuleShape {
  direction: 'above' | 'below';
  band: keyof DeviceSettings['deadband'];
  /** Shown after the number: '°C' is replaced by the chosen unit. */
  unit: string;
  /** What the number measures, said after non-temperature values ("85 % humidity"). */
  quantity: string;
}

export const RULE_SHAPES: Record<RuleField, RuleShape> = {
  temperatureHigh: { direction: 'above', band: 'temperatureC', unit: '°C', quantity: 'temperature' },
  temperatureLow: { direction: 'below', band: 'temperatureC', unit: '°C', quantity: 'temperature' },
  humidityHigh: { direction: 'above', band: 'humidityPct', unit: '%', quantity: 'humidity' },
  humidityLow: { direction: 'below', band: 'humidityPct', unit: '%', quantity: 'humidity' },
  soilMoistureLow: { direction: 'below', band: 'soilMoisturePct', unit: '%', quantity: 'soil moisture' },
  lightLevelLow: { direction: 'below', band: 'lightLux', unit: 'lux', quantity: 'light' },
};

export const isTemperatureRule = (field: RuleField) => RULE_SHAPES[field].band === 'temperatureC';

/** What the device does when the rule is met: "Heat", "Ventilate", "Water"; "Switch on" for the rest. */
export function ruleVerb(type: DeviceType): string {
  if (type === 'HEATER') return 'Heat';
  if (type === 'COOLING_SYSTEM') return 'Cool';
  if (type === 'FAN') return 'Ventilate';
  if (type === 'WATER_PUMP') return 'Water';
  if (type === 'LED_LIGHT') return 'Light';
  if (type === 'SERVO') return 'Open';
  return 'Switch on';
}

const num = (n: number) => String(Math.round(n * 10) / 10);

/** A value with its unit in the chosen temperature unit: '64.4 °F', '85 % humidity', '500 lux'. */
export function valueWords(field: RuleField, celsiusOrValue: number, unit: TemperatureUnit): string {
  const shape = RULE_SHAPES[field];
  if (isTemperatureRule(field)) return `${num(toUnit(celsiusOrValue, unit))} ${unitSymbol(unit)}`;
  return shape.unit === 'lux' ? `${num(celsiusOrValue)} lux` : `${num(celsiusOrValue)} ${shape.unit} ${shape.quantity}`;
}

/** The release point of a rule: its own off-at, else the threshold ∓ the deadband. */
export function offValue(field: RuleField, threshold: number, offAt: RuleOffAt | undefined, deadband: DeviceSettings['deadband']): { value: number; own: boolean } {
  const own = offAt?.[field];
  if (typeof own === 'number') return { value: own, own: true };
  const width = deadband[RULE_SHAPES[field].band];
  return { value: RULE_SHAPES[field].direction === 'above' ? threshold - width : threshold + width, own: false };
}

/** One sentence per configured rule, in the dialog's field order. */
export function ruleStatements(
  type: DeviceType,
  fields: readonly RuleField[],
  rules: Partial<AutomationRules>,
  deadband: DeviceSettings['deadband'],
  unit: TemperatureUnit,
): string[] {
  const out: string[] = [];
  for (const field of fields) {
    const threshold = rules[field];
    if (typeof threshold !== 'number') continue;
    const shape = RULE_SHAPES[field];
    const off = offValue(field, threshold, rules.offAt, deadband);
    const band = off.own ? '' : ` (the ${isTemperatureRule(field) ? num(deadband.temperatureC * (unit === 'F' ? 1.8 : 1)) + ' ' + unitSymbol(unit) : num(deadband[shape.band]) + ' ' + shape.unit} deadband)`;
    out.push(`${ruleVerb(type)} ${shape.direction} ${valueWords(field, threshold, unit)}, stop at ${valueWords(field, off.value, unit)}${band}`);
  }
  return out;
}

/** The schedule in words, with today's times when known. */
export function scheduleStatement(onlySchedule: boolean, today: string | null): string {
  const when = today ?? 'inside the window';
  return onlySchedule ? `Schedule: on ${when}, off outside it` : `Schedule: rules act only ${when}; off outside it`;
}
