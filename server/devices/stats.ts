import type { Device, DeviceStats, DeviceType } from '../contract/device.ts';
import { isOnStatus } from './actions.ts';

/**
 * Device statistics. "Active" counts devices that are ON or, for a servo window, OPEN: an open window
 * is as much "in action" as a running fan (the spec says "status ON" but has no servo in its list).
 * Power is the power in use: the sum of powerConsumption of the active devices, in watts.
 */
export function deviceStats(devices: readonly Device[]): DeviceStats {
  const byType = new Map<DeviceType, DeviceStats['byType'][number]>();
  const overall = { totalDevices: 0, totalActiveDevices: 0, totalAutoModeDevices: 0, totalPowerConsumption: 0 };
  for (const device of devices) {
    const active = isOnStatus(device.status);
    const group = byType.get(device.deviceType) ?? {
      _id: device.deviceType,
      totalDevices: 0,
      activeDevices: 0,
      autoModeDevices: 0,
      totalPowerConsumption: 0,
    };
    group.totalDevices += 1;
    overall.totalDevices += 1;
    if (active) {
      group.activeDevices += 1;
      group.totalPowerConsumption += device.powerConsumption;
      overall.totalActiveDevices += 1;
      overall.totalPowerConsumption += device.powerConsumption;
    }
    if (device.autoMode) {
      group.autoModeDevices += 1;
      overall.totalAutoModeDevices += 1;
    }
    byType.set(device.deviceType, group);
  }
  return { overall, byType: [...byType.values()] };
}
