import type { EventBus } from '../events/bus.ts';
import { climateMetrics } from '../sensors/climate-metrics.ts';
import type { RealtimeHub } from './hub.ts';

/** Relays what happens inside the gateway to the browsers, as the specification's events. */
export function bridgeBusToHub(bus: EventBus, hub: RealtimeHub): () => void {
  const owner = 'realtime';
  const offs = [
    bus.on('sampleTaken', owner, ({ greenhouseId, readings, snapshot }) => {
      for (const reading of readings) hub.broadcast(greenhouseId, 'sensorUpdate', reading);
      const metrics = climateMetrics(snapshot.values.temperature, snapshot.values.humidity);
      hub.broadcast(greenhouseId, 'allSensorsUpdate', {
        greenhouseId,
        temperature: snapshot.values.temperature,
        humidity: snapshot.values.humidity,
        soilMoisture: snapshot.values.soilMoisture,
        lightIntensity: snapshot.values.lightIntensity,
        waterLevel: snapshot.values.waterLevel,
        vpdKpa: metrics.vpdKpa ?? null,
        dewPointC: metrics.dewPointC ?? null,
        timestamp: snapshot.takenAt,
      });
    }),
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
    }),
    bus.on('deviceExplained', owner, ({ greenhouseId, device }) => hub.broadcast(greenhouseId, 'deviceUpdate', device)),
    bus.on('deviceAdded', owner, ({ greenhouseId, device }) => hub.broadcast(greenhouseId, 'deviceAdded', device)),
    bus.on('deviceRemoved', owner, ({ greenhouseId, deviceId }) =>
      hub.broadcast(greenhouseId, 'deviceRemoved', { greenhouseId, deviceId }),
    ),
    bus.on('alertRaised', owner, ({ alert }) => hub.broadcast(alert.greenhouseId, 'newAlert', alert)),
    bus.on('alertResolved', owner, ({ alert }) => hub.broadcast(alert.greenhouseId, 'alertResolved', alert)),
    bus.on('accountRevoked', owner, ({ accountId, reason, tokenId }) => hub.revalidateAccount(accountId, reason, tokenId)),
  ];
  return () => offs.forEach((off) => off());
}
