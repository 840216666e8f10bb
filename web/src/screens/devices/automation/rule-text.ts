// Plain statements of what each rule does, with its deadband: "ON at 30 °C, OFF at 29.5 °C". The
// engine switches on strictly past the threshold and off strictly past threshold ∓ band
// (server/devices/rules/engine.ts); the words say the same.
import type { AutomationRules, Schedule } from '../../../../../server/contract/device.ts';
import type { DeviceSettings } from '../../../../../server/contract/settings.ts';
import { RULE_LABELS, type RuleField } from '../device-ui.ts';

const SHAPES: Record<RuleField, { direction: 'above' | 'below'; band: keyof DeviceSettings['deadband']; unit: string }> = {
  temperatureHigh: { direction: 'above', band: 'temperatureC', unit: '°C' },
  temperatureLow: { direction: 'below', band: 'temperatureC', unit: '°C' },
  humidityHigh: { direction: 'above', band: 'humidityPct', unit: '%' },
  humidityLow: { direction: 'below', band: 'humidityPct', unit: '%' },
  soilMoistureLow: { direction: 'below', band: 'soilMoisturePct', unit: '%' },
  lightLevelLow: { direction: 'below', band: 'lightLux', unit: 'lux' },
};

const num = (n: number) => String(Math.round(n * 100) / 100);

/** One line per configured rule, in the dialog's field order. */
export function ruleStatements(fields: readonly RuleField[], rules: Partial<AutomationRules>, deadband: DeviceSettings['deadband']): string[] {
  const out: string[] = [];
  for (const field of fields) {
    const threshold = rules[field];
    if (typeof threshold !== 'number') continue;
    const { direction, band, unit } = SHAPES[field];
    const width = deadband[band];
    const off = direction === 'above' ? threshold - width : threshold + width;
    const name = RULE_LABELS[field].replace(/ \(.*\)$/, '');
    out.push(`${name}: ON at ${num(threshold)} ${unit}, OFF at ${num(off)} ${unit} (deadband ${num(width)} ${unit})`);
  }
  return out;
}

export function scheduleStatement(schedule: Schedule | null, onlySchedule: boolean): string | null {
  if (!schedule) return null;
  return onlySchedule
    ? `Schedule: ON at ${schedule.from}, OFF at ${schedule.to}`
    : `Schedule: rules act only from ${schedule.from} to ${schedule.to}; OFF outside`;
}

/** HH:MM, sunrise, sunset, sunrise+30, sunset-15 (server/contract/device.ts SCHEDULE_TIME_PATTERN). */
export const isScheduleTime = (text: string) => /^(([01][0-9]|2[0-3]):[0-5][0-9]|(sunrise|sunset)([+-][0-9]{1,3})?)$/.test(text);
