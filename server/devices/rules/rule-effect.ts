import type { AutomationRules, DeviceType } from '../../contract/device.ts';
import type { RuleKind } from './rule-kinds.ts';

/**
 * Threshold rules that would drive a machine against its own effect. A rule switches its device on
 * when the rule is met: a heater warms, so a `temperatureHigh` rule would switch it on when the house
 * is already too hot (the cut-off at `heaterCutoffC` would be all that stopped it); a cooling system
 * cools, so a `temperatureLow` rule would chill a house already too cold. The dashboard's automation
 * dialog never offers these (docs/product.md: a heater shows temperatureLow, a cooling system
 * temperatureHigh); an API client is refused them, and one stored by an older release is cleared at
 * start (docs/decisions.md). Humidity rules stay open to both: heating dries the air and an evaporative
 * cooler wets it, which growers use.
 */
const AGAINST_EFFECT: Partial<Record<DeviceType, { kind: RuleKind; why: string; instead: RuleKind }>> = {
  HEATER: { kind: 'temperatureHigh', why: 'a heater warms, and this rule would switch it on when the house is already too hot', instead: 'temperatureLow' },
  COOLING_SYSTEM: { kind: 'temperatureLow', why: 'a cooling system cools, and this rule would switch it on when the house is already too cold', instead: 'temperatureHigh' },
};

/** The rule of `rules` that would drive a `deviceType` against its effect: its field and a sentence; null when none. */
export function ruleAgainstEffect(deviceType: DeviceType, rules: Pick<AutomationRules, RuleKind>): { kind: RuleKind; field: string; message: string } | null {
  const misfit = AGAINST_EFFECT[deviceType];
  if (!misfit) return null;
  const threshold = rules[misfit.kind];
  if (threshold === null || threshold === undefined) return null;
  const field = `automationRules.${misfit.kind}`;
  return { kind: misfit.kind, field, message: `${field} (${threshold}) does not fit a ${deviceType}: ${misfit.why}; use automationRules.${misfit.instead}` };
}
