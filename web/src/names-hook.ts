// The name a grower knows a thing by, for an id the gateway sends with an alert (a device id such as
// fan-1, or a sensor type such as DHT11): the device's own name, else the sensor's friendly name.
import { useCallback } from 'react';
import { useDevices } from './api/queries.ts';
import { isSensorType, sensorName } from './names.ts';

export function useThingName(): (id: string) => string {
  const devices = useDevices().data;
  return useCallback(
    (id: string) => {
      const device = devices?.find((d) => d.deviceId === id);
      if (device) return device.deviceName;
      // Anything else (an alert created by hand for 'door-1') keeps its id.
      return isSensorType(id) ? sensorName(id) : id;
    },
    [devices],
  );
}
