import type { AutomationRules, DeviceType, RuleOffAt, Schedule } from '../../contract/device.ts';
import { OPPOSED_RULE_PAIRS } from '../../../common/rule-pairs.ts';
import { invalid } from '../../domain/errors.ts';
import { followMisfit } from '../../climate/follow.ts';
import { checkIrrigation } from '../irrigation/validate.ts';
import { checkOffAt } from './off-at.ts';
import { ruleAgainstEffect } from './rule-effect.ts';

type Changes = Partial<AutomationRules> | undefined;


/**
 * Everything the schema cannot say about a device's automation rules, checked on the rules as saving
 * them would store them (`rules`, the merge of the stored ones and `changes`): bands on the right side
 * (off-at.ts), a low rule below its high rule, no rule that drives the device against its effect
 * (rule-effect.ts), a followed target the device can act on, an irrigation
 * program only on a pump, windows that open. Each refusal is a 400 naming the field, before anything is written. Used by
 * saving and by the preview, so a preview never shows what could not be saved.
 */
export function checkAutomationRules(rules: AutomationRules, changes: Changes, deviceType: DeviceType): void {
  checkOffAt(rules);
  checkPairs(rules, changes);
  const against = ruleAgainstEffect(deviceType, rules);
  if (against) throw invalid(against.message, against.field);
  const misfit = followMisfit(deviceType, rules);
  if (misfit) throw invalid(misfit.message, misfit.field);
  checkIrrigation(rules.irrigation, deviceType);
  if (changes?.schedule !== undefined) checkWindow(rules.schedule, 'automationRules.schedule');
  if (changes?.irrigation?.window !== undefined) checkWindow(rules.irrigation?.window ?? null, 'automationRules.irrigation.window');
}

/**
 * A window from 06:00 to 06:00 ends where it starts: the engine reads it as never open (the device off
 * for good) while a grower may have meant all day. Refused so neither is guessed; no window at all
 * (null) is the whole day.
 */
function checkWindow(window: Schedule | null, field: string): void {
  const moment = (end: string) => end.replace(/[+-]0+$/, ''); // sunrise+0 is sunrise
  if (window === null || moment(window.from) !== moment(window.to)) return;
  throw invalid(`${field}.to (${window.to}) must differ from ${field}.from (${window.from}): a window that ends where it starts is never open (no window is the whole day)`, `${field}.to`);
}

/**
 * High and low rules of one quantity must leave a band between them where the device is off: with
 * temperatureHigh 20 and temperatureLow 30 a fan is on at every temperature. Nor may one rule's release
 * point (offAt) reach past the other rule's threshold: on by the one, it would be held on by the other
 * and never let go. Checked when the change sets a field of the pair, so rules stored by an older
 * release do not block an unrelated change (auto mode on, a schedule); the field named is the one sent.
 */
function checkPairs(rules: AutomationRules, changes: Changes): void {
  for (const { low: lowKey, high: highKey, quantity } of OPPOSED_RULE_PAIRS) {
    const sent = (key: keyof RuleOffAt) => changes?.[key] !== undefined;
    const sentOffAt = (key: keyof RuleOffAt) => changes?.offAt?.[key] !== undefined;
    if (!sent(lowKey) && !sent(highKey) && !sentOffAt(lowKey) && !sentOffAt(highKey)) continue;
    const low = rules[lowKey];
    const high = rules[highKey];
    if (typeof low !== 'number' || typeof high !== 'number') continue;
    if (low >= high) {
      throw invalid(
        `automationRules.${lowKey} (${low}) must be below automationRules.${highKey} (${high}): the device would be on at every ${quantity}`,
        `automationRules.${sent(lowKey) ? lowKey : highKey}`,
      );
    }
    const lowOffAt = rules.offAt?.[lowKey];
    if (typeof lowOffAt === 'number' && lowOffAt >= high) {
      throw invalid(
        `automationRules.offAt.${lowKey} (${lowOffAt}) must be below automationRules.${highKey} (${high}): switched on below ${low}, the device would reach the ${highKey} rule before it lets go and stay on`,
        sentOffAt(lowKey) || !sent(highKey) ? `automationRules.offAt.${lowKey}` : `automationRules.${highKey}`,
      );
    }
    const highOffAt = rules.offAt?.[highKey];
    if (typeof highOffAt === 'number' && highOffAt <= low) {
      throw invalid(
        `automationRules.offAt.${highKey} (${highOffAt}) must be above automationRules.${lowKey} (${low}): switched on above ${high}, the device would reach the ${lowKey} rule before it lets go and stay on`,
        sentOffAt(highKey) || !sent(lowKey) ? `automationRules.offAt.${highKey}` : `automationRules.${lowKey}`,
      );
    }
  }
}
