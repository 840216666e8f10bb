// The rule bands of the Automation Settings dialog as the form holds them (text in the chosen
// temperature unit) and as the gateway takes them (numbers in °C, null for a disabled rule, offAt for
// a band's release point). Problems come back as sentences naming the field.
import { OPPOSED_RULE_PAIRS } from '../../../../../common/rule-pairs.ts';
import type { AutomationRules, Device, RuleOffAt } from '../../../../../server/contract/device.ts';
import { fromUnit, toUnit, unitSymbol, type TemperatureUnit } from '../../../units.ts';
import type { RuleField } from '../device-ui.ts';
import { isTemperatureRule, RULE_SHAPES } from './rule-text.ts';

export interface BandTexts {
  on: string;
  off: string;
}
export type RuleTexts = Record<RuleField, BandTexts>;

const FIELDS = Object.keys(RULE_SHAPES) as RuleField[];

const shown = (field: RuleField, value: number | null | undefined, unit: TemperatureUnit) =>
  typeof value !== 'number' ? '' : String(isTemperatureRule(field) ? Math.round(toUnit(value, unit) * 10) / 10 : value);

export function textsFromRules(rules: AutomationRules, unit: TemperatureUnit): RuleTexts {
  return Object.fromEntries(FIELDS.map((f) => [f, { on: shown(f, rules[f], unit), off: shown(f, rules.offAt?.[f], unit) }])) as RuleTexts;
}

/** The label of a rule's threshold field, in the chosen unit: 'Temperature Low (°F)'. */
export function ruleLabel(label: string, field: RuleField, unit: TemperatureUnit): string {
  return isTemperatureRule(field) ? label.replace('(°C)', `(${unitSymbol(unit)})`) : label;
}

/** The rules with `fields` taken from the form (the other fields stay the device's), or a problem. */
export function rulesFromTexts(
  device: Device,
  fields: readonly RuleField[],
  texts: RuleTexts,
  unit: TemperatureUnit,
  labels: Record<RuleField, string>,
): AutomationRules | string {
  const rules: AutomationRules = { ...device.automationRules };
  const offAt: RuleOffAt = { ...(device.automationRules.offAt ?? {}) };
  for (const field of fields) {
    const label = ruleLabel(labels[field], field, unit);
    const parse = (text: string, what: string): number | null | string => {
      if (text.trim() === '') return null;
      const value = Number(text);
      if (!Number.isFinite(value)) return `${what} must be a number`;
      return isTemperatureRule(field) ? fromUnit(value, unit) : value;
    };
    const on = parse(texts[field].on, label);
    if (typeof on === 'string') return on;
    const off = parse(texts[field].off, `${label}: stop at`);
    if (typeof off === 'string') return off;
    if (off !== null && on === null) return `${label}: set the threshold before its stop value, or clear the stop value`;
    if (off !== null && on !== null) {
      const { direction } = RULE_SHAPES[field];
      if (direction === 'below' && off <= on) return `${label}: stop at must be above the threshold (it switches on below it)`;
      if (direction === 'above' && off >= on) return `${label}: stop at must be below the threshold (it switches on above it)`;
    }
    rules[field] = on;
    offAt[field] = on === null ? null : off;
  }
  rules.offAt = offAt;
  return pairProblem(rules, unit, labels) ?? rules;
}

/**
 * A low rule at or above its high rule (on at every value), or one band's stop value past the other
 * rule's threshold (on by one, held by the other, never off): the sentence the gateway would refuse with.
 */
function pairProblem(rules: AutomationRules, unit: TemperatureUnit, labels: Record<RuleField, string>): string | null {
  for (const { low, high, quantity } of OPPOSED_RULE_PAIRS) {
    const lowValue = rules[low];
    const highValue = rules[high];
    if (typeof lowValue !== 'number' || typeof highValue !== 'number') continue;
    const lowLabel = ruleLabel(labels[low], low, unit);
    const highLabel = ruleLabel(labels[high], high, unit);
    if (lowValue >= highValue) return `${lowLabel} must be below ${highLabel}: the device would be on at every ${quantity}`;
    const lowStop = rules.offAt?.[low];
    if (typeof lowStop === 'number' && lowStop >= highValue) return `${lowLabel}: stop at must be below ${highLabel}, or the device would never switch off`;
    const highStop = rules.offAt?.[high];
    if (typeof highStop === 'number' && highStop <= lowValue) return `${highLabel}: stop at must be above ${lowLabel}, or the device would never switch off`;
  }
  return null;
}
