import type { Device } from '../../contract/device.ts';
import { SENSOR_FIELDS, type SensorType } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import { configuredRules, shapeOf } from './rule-kinds.ts';

/**
 * The auto-mode devices that act on what a sensor measures: their threshold rules read one of its
 * fields, or they are heaters and it measures the air temperature (a heater needs it whatever its
 * rules), or pumps whose irrigation program reads the soil. Losing such a sensor leaves part of the crop unattended.
 */
export function devicesDependingOn(sensorType: SensorType, devices: readonly Device[], deadband: DeviceSettings['deadband']): Device[] {
  const fields = SENSOR_FIELDS[sensorType] ?? [];
  return devices.filter((device) => {
    if (!device.autoMode) return false;
    if (device.deviceType === 'HEATER' && fields.includes('temperature')) return true;
    // An irrigation program waters by the soil probe (docs/irrigation.md).
    if (device.automationRules.irrigation && fields.includes('soilMoisture')) return true;
    return configuredRules(device.automationRules).some((rule) => fields.includes(shapeOf(rule, deadband).field));
  });
}
