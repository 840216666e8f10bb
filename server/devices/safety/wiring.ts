import type { Device, DeviceType } from '../../contract/device.ts';

/**
 * The device as safety must see it (docs/decisions.md, Safety beyond the rules): typed by the output it
 * drives, not by its record. A pump's relay is protected as a pump whatever a device row says; an
 * unbound device drives nothing and keeps its own type.
 */
export function asWired(device: Device, wiredTypeOf: (outputId: string) => DeviceType | undefined): Device {
  const wired = device.output ? wiredTypeOf(device.output.outputId) : undefined;
  return wired && wired !== device.deviceType ? { ...device, deviceType: wired } : device;
}
