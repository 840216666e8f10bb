import type { AutomationRules } from '../../contract/device.ts';
import type { SensorField } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';

/** One configured automation rule: a threshold on one measured quantity, met above or below it. */
export type Rule =
  | { kind: 'temperatureHigh'; threshold: number }
  | { kind: 'temperatureLow'; threshold: number }
  | { kind: 'humidityHigh'; threshold: number }
  | { kind: 'humidityLow'; threshold: number }
  | { kind: 'soilMoistureLow'; threshold: number }
  | { kind: 'lightLevelLow'; threshold: number };

export type RuleKind = Rule['kind'];

export interface RuleShape {
  field: SensorField;
  /** 'above': met when the value rises past the threshold; 'below': when it falls under it. */
  direction: 'above' | 'below';
  /** Hysteresis band of the quantity, from deviceSettings.deadband. */
  band: number;
  unit: string;
}

/** What each kind measures and which way it triggers. Exhaustive: a new kind fails to compile here. */
export function shapeOf(rule: Rule, deadband: DeviceSettings['deadband']): RuleShape {
  switch (rule.kind) {
    case 'temperatureHigh':
      return { field: 'temperature', direction: 'above', band: deadband.temperatureC, unit: '°C' };
    case 'temperatureLow':
      return { field: 'temperature', direction: 'below', band: deadband.temperatureC, unit: '°C' };
    case 'humidityHigh':
      return { field: 'humidity', direction: 'above', band: deadband.humidityPct, unit: '%' };
    case 'humidityLow':
      return { field: 'humidity', direction: 'below', band: deadband.humidityPct, unit: '%' };
    case 'soilMoistureLow':
      return { field: 'soilMoisture', direction: 'below', band: deadband.soilMoisturePct, unit: '%' };
    case 'lightLevelLow':
      return { field: 'lightIntensity', direction: 'below', band: deadband.lightLux, unit: 'lux' };
    default: {
      const unknown: never = rule;
      throw new Error(`unknown rule kind ${JSON.stringify(unknown)}`);
    }
  }
}

const RULE_ORDER: readonly RuleKind[] = [
  'temperatureHigh',
  'temperatureLow',
  'humidityHigh',
  'humidityLow',
  'soilMoistureLow',
  'lightLevelLow',
];

/** The configured (non-null) rules of a device, in a fixed order so the reported rule is stable. */
export function configuredRules(rules: AutomationRules): Rule[] {
  const out: Rule[] = [];
  for (const kind of RULE_ORDER) {
    const threshold = rules[kind];
    if (typeof threshold === 'number' && Number.isFinite(threshold)) out.push({ kind, threshold } as Rule);
  }
  return out;
}
