// Pure helpers of the Device Control screen: groups, badges, the control button's action.
import type { ControlAction, Device, DeviceStatus, DeviceType } from '../../../../server/contract/device.ts';

export { ADDABLE_DEVICE_TYPES as ADDABLE_TYPES } from '../../../../common/catalogue.ts';

/** Group headings in the spec's order; servo windows come last. */
export const GROUPS: ReadonlyArray<{ type: DeviceType; heading: string }> = [
  { type: 'FAN', heading: 'Ventilation Fans' },
  { type: 'WATER_PUMP', heading: 'Water Pumps' },
  { type: 'LED_LIGHT', heading: 'LED Lights' },
  { type: 'HEATER', heading: 'Heaters' },
  { type: 'COOLING_SYSTEM', heading: 'Cooling Systems' },
  { type: 'SERVO', heading: 'Roof Windows' },
];

/** Active = ON, or OPEN for a window (the server's stats count the same). */
export const isActive = (status: DeviceStatus) => status === 'ON' || status === 'OPEN';

/** Spec section 4: servo open/close by status, pump turn_on/turn_off, others toggle. */
export function controlActionFor(device: Device): ControlAction {
  if (device.deviceType === 'SERVO') return device.status === 'OPEN' ? 'close' : 'open';
  if (device.deviceType === 'WATER_PUMP') return device.status === 'ON' ? 'turn_off' : 'turn_on';
  return 'toggle';
}

/** Whether the card's control button would switch the device on (open a window): refused in maintenance. */
export function switchesOn(device: Device): boolean {
  return device.deviceType === 'SERVO' ? device.status !== 'OPEN' : !isActive(device.status);
}

export function controlLabel(device: Device): string {
  if (device.deviceType === 'SERVO') return device.status === 'OPEN' ? 'Close' : 'Open';
  return isActive(device.status) ? 'Turn Off' : 'Turn On';
}

/** "40 % open" for a roof window opened part-way by the climate program (docs/climate.md); null otherwise. */
export function openingText(device: Pick<Device, 'status' | 'openPct'>): string | null {
  return device.status === 'OPEN' && device.openPct !== undefined && device.openPct < 100 ? `${device.openPct} % open` : null;
}

export function statusBadgeClass(status: DeviceStatus): string {
  switch (status) {
    case 'ON':
      return 'badge badge-on';
    case 'AUTO':
      return 'badge badge-auto';
    case 'OPEN':
      return 'badge badge-open';
    default:
      return 'badge badge-off';
  }
}

export type RuleField = 'temperatureHigh' | 'temperatureLow' | 'humidityHigh' | 'humidityLow' | 'soilMoistureLow' | 'lightLevelLow';

export const RULE_LABELS: Record<RuleField, string> = {
  temperatureHigh: 'Temperature High (°C)',
  temperatureLow: 'Temperature Low (°C)',
  humidityHigh: 'Humidity High (%)',
  humidityLow: 'Humidity Low (%)',
  soilMoistureLow: 'Soil Moisture Low (%)',
  lightLevelLow: 'Light Level Low (lux)',
};

const ALL_RULES = Object.keys(RULE_LABELS) as RuleField[];

/**
 * Spec section 5: the rule fields shown per type; any other type (e.g. a servo window) gets all six. A
 * field of another type that holds a stored value is shown too, so it can be seen and cleared (the
 * gateway checks a low rule against its high rule, set here or not).
 */
export function ruleFieldsFor(type: DeviceType, stored?: Partial<Record<RuleField, number | null>>): RuleField[] {
  const ofType = ruleFieldsOfType(type);
  if (!stored) return ofType;
  return ALL_RULES.filter((f) => ofType.includes(f) || typeof stored[f] === 'number');
}

function ruleFieldsOfType(type: DeviceType): RuleField[] {
  switch (type) {
    case 'FAN':
      return ['temperatureHigh', 'humidityHigh'];
    case 'WATER_PUMP':
      return ['soilMoistureLow'];
    case 'LED_LIGHT':
      return ['lightLevelLow'];
    case 'HEATER':
      return ['temperatureLow'];
    case 'COOLING_SYSTEM':
      return ['temperatureHigh'];
    default:
      return ALL_RULES;
  }
}

/** Generate ID: lower-cased type, underscore, the last 6 digits of the current time in ms. */
export function generateDeviceId(type: string, nowMs: number = Date.now()): string {
  return `${(type || 'device').toLowerCase()}_${String(nowMs).slice(-6)}`;
}
