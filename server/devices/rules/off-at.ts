import type { AutomationRules } from '../../contract/device.ts';
import { invalid } from '../../domain/errors.ts';
import { configuredRules, shapeOf } from './rule-kinds.ts';

const NO_DEADBAND = { temperatureC: 0, humidityPct: 0, soilMoisturePct: 0, lightLux: 0 };

/**
 * A band must be a band: a *Low rule lets go above where it starts (heat below 18, stop at 20), a *High
 * rule below it. Otherwise 400 naming `automationRules.offAt.<rule>`. An offAt whose rule is unset is
 * kept and does nothing until the rule is set (then it is checked).
 */
export function checkOffAt(rules: AutomationRules): void {
  for (const rule of configuredRules(rules)) {
    const offAt = rules.offAt?.[rule.kind];
    if (typeof offAt !== 'number') continue;
    const { direction } = shapeOf(rule, NO_DEADBAND);
    const field = `automationRules.offAt.${rule.kind}`;
    if (direction === 'below' && offAt <= rule.threshold) {
      throw invalid(`${field} (${offAt}) must be above automationRules.${rule.kind} (${rule.threshold}): the rule switches on below ${rule.threshold} and lets go at ${field}`, field);
    }
    if (direction === 'above' && offAt >= rule.threshold) {
      throw invalid(`${field} (${offAt}) must be below automationRules.${rule.kind} (${rule.threshold}): the rule switches on above ${rule.threshold} and lets go at ${field}`, field);
    }
  }
}

/** The rules after a partial change, as saving them would store them: offAt bands merge rule by rule. */
export function mergeRules(current: AutomationRules, changes: Partial<AutomationRules> | undefined): AutomationRules {
  const merged: AutomationRules = { ...current, ...changes };
  if (changes?.offAt !== undefined || current.offAt !== undefined) merged.offAt = { ...current.offAt, ...changes?.offAt };
  return merged;
}
