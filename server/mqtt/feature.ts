import { SystemClock, type Clock } from '../../common/clock.ts';
import { packageVersion } from '../appliance/health-feature.ts';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Device } from '../contract/device.ts';
import type { MqttStatus } from '../contract/fleet.ts';
import type { SensorSnapshot } from '../contract/reading.ts';
import type { ControlService } from '../devices/control-service.ts';
import type { Feature } from '../features.ts';
import { MqttBridge } from './bridge.ts';
import { MqttConnection, type ConnectFn } from './connection.ts';
import { Discovery } from './discovery.ts';
import { Topics } from './topics.ts';

export interface MqttFeature extends Feature {
  /** The bridge as /api/health and Settings > System show it. */
  status(): MqttStatus;
}

export interface MqttUses {
  control: Pick<ControlService, 'control'>;
  listDevices: () => Device[];
  snapshot: () => SensorSnapshot;
  /** Wall-clock timers for reconnect back-off (default: the system clock). */
  timers?: Clock;
  /** `mqtt.connect` (default: the mqtt package, imported only when the bridge is enabled). */
  connect?: ConnectFn;
}

const OFF: MqttStatus = {
  enabled: false,
  state: 'off',
  broker: null,
  topicRoot: null,
  discovery: false,
  queued: 0,
  dropped: 0,
  published: 0,
  commandsReceived: 0,
  lastConnectedAt: null,
  lastError: null,
  nextAttemptAt: null,
};

/**
 * The MQTT bridge (design.md, Fleet): off while `mqtt.url` is unset, and then the mqtt package is never
 * loaded. Started after the devices (it commands them) and before the sampler (it publishes its ticks).
 */
export function createMqttFeature(ctx: AppContext, uses: MqttUses): MqttFeature {
  const { config } = ctx;
  const mqtt = config.mqtt;
  const logger = featureLogger(ctx, 'mqtt');
  const topics = new Topics(mqtt.baseTopic, config.greenhouseId);
  let connection: MqttConnection | null = null;
  let bridge: MqttBridge | null = null;

  return {
    name: 'mqtt',
    status() {
      if (!connection || !bridge) return { ...OFF, enabled: mqtt.url !== undefined };
      return {
        ...OFF,
        ...connection.status(),
        enabled: true,
        topicRoot: topics.root,
        discovery: mqtt.homeAssistant.discovery,
        commandsReceived: bridge.commandsReceived,
      };
    },
    async start() {
      if (mqtt.url === undefined) return;
      const connect = uses.connect ?? (await import('mqtt')).connect;
      connection = new MqttConnection({
        url: mqtt.url,
        username: mqtt.username,
        password: mqtt.password,
        clientId: mqtt.clientId ?? `greenhouse-${config.greenhouseId}`,
        statusTopic: topics.status,
        eventLimit: mqtt.queueLimit,
        connect,
        timers: uses.timers ?? new SystemClock(),
        logger,
      });
      const discovery = mqtt.homeAssistant.discovery
        ? new Discovery({
            prefix: mqtt.homeAssistant.prefix,
            topics,
            identity: {
              greenhouseId: config.greenhouseId,
              model: `Greenhouse gateway (${config.hardware === 'raspberry-pi' ? 'Raspberry Pi' : 'simulator'})`,
              swVersion: packageVersion(),
            },
            measured: new Set(ctx.hardware.sensors.flatMap((sensor) => sensor.quantities)),
          })
        : null;
      bridge = new MqttBridge({
        connection,
        topics,
        discovery,
        greenhouseId: config.greenhouseId,
        bus: ctx.bus,
        control: uses.control,
        listDevices: uses.listDevices,
        snapshot: uses.snapshot,
        logger,
      });
      bridge.start();
      connection.open();
      logger.info({ broker: connection.broker, topicRoot: topics.root }, 'MQTT bridge started');
    },
    async stop() {
      bridge?.stop();
      await connection?.close();
    },
  };
}
