import type { EventBus } from '../events/bus.ts';
import { allSensorsUpdate } from '../sensors/all-sensors-update.ts';
import type { RealtimeHub } from './hub.ts';

/** Relays what happens inside the gateway to the browsers, as the specification's events. */
export function bridgeBusToHub(bus: EventBus, hub: RealtimeHub): () => void {
  const owner = 'realtime';
  // Every listener here is the realtime bridge's: the returned function clears them by owner.
  bus.on('sampleTaken', owner, ({ greenhouseId, readings, snapshot }) => {
    for (const reading of readings) hub.broadcast(greenhouseId, 'sensorUpdate', reading);
    hub.broadcast(greenhouseId, 'allSensorsUpdate', allSensorsUpdate(greenhouseId, snapshot));
  });
  bus.on('deviceChanged', owner, ({ greenhouseId, device, action, controlLog }) => {
    hub.broadcast(greenhouseId, 'deviceUpdate', device);
    if (controlLog) {
      hub.broadcast(greenhouseId, 'device-control-update', {
        greenhouseId,
        deviceId: device.deviceId,
        action: action ?? controlLog.action,
        status: device.status,
        controlLog,
        stateReason: device.stateReason,
        locks: device.locks,
      });
      hub.broadcast(greenhouseId, 'deviceControlled', { greenhouseId, device, controlLog });
    }
  });
  bus.on('deviceExplained', owner, ({ greenhouseId, device }) => hub.broadcast(greenhouseId, 'deviceUpdate', device));
  bus.on('deviceAdded', owner, ({ greenhouseId, device }) => hub.broadcast(greenhouseId, 'deviceAdded', device));
  bus.on('deviceRemoved', owner, ({ greenhouseId, deviceId }) =>
    hub.broadcast(greenhouseId, 'deviceRemoved', { greenhouseId, deviceId }),
  );
  bus.on('alertRaised', owner, ({ alert }) => hub.broadcast(alert.greenhouseId, 'newAlert', alert));
  bus.on('alertResolved', owner, ({ alert }) => hub.broadcast(alert.greenhouseId, 'alertResolved', alert));
  bus.on('alertAcknowledged', owner, ({ alert }) => hub.broadcast(alert.greenhouseId, 'alertAcknowledged', alert));
  bus.on('accountRevoked', owner, ({ accountId, reason, tokenId }) => hub.revalidateAccount(accountId, reason, tokenId));
  return () => bus.removeAll(owner);
}
