import type { WaterDay } from '../contract/irrigation.ts';
import { randomBytes } from 'node:crypto';
import { SystemClock, type Clock } from '../../common/clock.ts';
import { packageVersion } from '../package-root.ts';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import { isTopicSafeDeviceId } from '../contract/common.ts';
import type { Device } from '../contract/device.ts';
import type { MqttStatus } from '../contract/fleet.ts';
import type { SensorSnapshot } from '../contract/reading.ts';
import type { ControlService } from '../devices/control-service.ts';
import type { Feature } from '../features.ts';
import { MqttBridge } from './bridge.ts';
import { MqttConnection, type ConnectFn } from './connection.ts';
import { Discovery } from './discovery.ts';
import type { DropReason } from './input-guard.ts';
import { withSlicedInput } from './sliced-input.ts';
import { Topics } from './topics.ts';

export interface MqttFeature extends Feature {
  /** The bridge as /api/health and Settings > System show it. */
  status(): MqttStatus;
  /** MQTT input dropped since start by reason (oversized, rate), or null while the bridge is off. */
  inputDropped(): Readonly<Record<DropReason, number>> | null;
}

export interface MqttUses {
  control: Pick<ControlService, 'control'>;
  listDevices: () => Device[];
  snapshot: () => SensorSnapshot;
  /** A pump's water today, published after each of its switches; absent: no water topic. */
  waterToday?: (deviceId: string) => WaterDay | null;
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
  commandsIgnored: null,
  lastConnectedAt: null,
  lastError: null,
  nextAttemptAt: null,
};

/** Why commands are not listened to: MQTT has no roles, so only a broker that checks who publishes may command. */
export const NO_CREDENTIALS = 'no broker credentials configured (mqtt.username and mqtt.password)';

/** Credentials in the config keys or in the url's user info (`mqtt://user:password@host`). */
function hasCredentials(mqtt: AppContext['config']['mqtt']): boolean {
  if (mqtt.username !== undefined && mqtt.password !== undefined && mqtt.password !== '') return true;
  try {
    const url = new URL(mqtt.url ?? '');
    return url.username !== '' && url.password !== '';
  } catch {
    return false;
  }
}

/**
 * The MQTT bridge (docs/decisions.md, Fleet): off while `mqtt.url` is unset, and then the mqtt package is never
 * loaded. Started after the devices (it commands them) and before the sampler (it publishes its ticks);
 * the broker is dialled in `serving`, once the gateway answers.
 */
export function createMqttFeature(ctx: AppContext, uses: MqttUses): MqttFeature {
  const { config } = ctx;
  const mqtt = config.mqtt;
  const logger = featureLogger(ctx, 'mqtt');
  const topics = new Topics(mqtt.baseTopic, config.greenhouseId);
  let connection: MqttConnection | null = null;
  let bridge: MqttBridge | null = null;
  let connect: ConnectFn | null = null;
  /** Set by `stop`: a `serving` still loading mqtt.js then dials nothing. */
  let stopped = false;
  const commandsIgnored = hasCredentials(mqtt) ? null : NO_CREDENTIALS;
  // Devices whose id would be a wildcard or an extra level in a topic (rows from before ids were
  // checked): publishing one makes the broker drop the connection, at every reconnect. Skipped, said once.
  const skipped = new Set<string>();
  const topicSafeDevices = () =>
    uses.listDevices().filter((device) => {
      if (isTopicSafeDeviceId(device.deviceId)) return true;
      if (!skipped.has(device.deviceId)) {
        skipped.add(device.deviceId);
        logger.warn({ deviceId: device.deviceId }, 'MQTT: device skipped, its id is not safe in a topic (only letters, digits, _ and -); give it a new id');
      }
      return false;
    });

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
        commandsIgnored,
      };
    },
    inputDropped() {
      return bridge?.inputDropped ?? null;
    },
    start() {
      if (mqtt.url === undefined) return;
      const timers = uses.timers ?? new SystemClock();
      connection = new MqttConnection({
        url: mqtt.url,
        username: mqtt.username,
        password: mqtt.password,
        // A random suffix: anyone connecting with the predictable id would otherwise take the session
        // over, and every such connect made the gateway flap offline/online.
        clientId: `${mqtt.clientId ?? `greenhouse-${config.greenhouseId}`}-${randomBytes(4).toString('hex')}`,
        statusTopic: topics.status,
        eventLimit: mqtt.queueLimit,
        // Dialled only in `serving`, once mqtt.js is loaded.
        connect: (url, options) => connect!(url, options),
        timers,
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
        acceptCommands: commandsIgnored === null,
        listDevices: topicSafeDevices,
        snapshot: uses.snapshot,
        waterToday: uses.waterToday,
        logger,
        timers,
      });
      // Listening from the start: what happens before the broker is dialled waits in the bounded
      // outbox, as it does while a broker is down.
      bridge.start();
      stopped = false;
    },
    /**
     * mqtt.js is loaded (about half a second of module compilation on a Pi core) once the gateway answers
     * and samples, not before: the broker is an extra, control and the dashboard are not.
     */
    async serving() {
      if (!connection) return;
      // The broker's input reaches mqtt.js a slice per turn of the event loop (sliced-input.ts).
      // `.default`: mqtt is CommonJS, and in the compiled server a bundled chunk whose only export is
      // its module.exports (scripts/build-server.mjs).
      const loaded = uses.connect ?? withSlicedInput((await import('mqtt')).default.connect);
      if (stopped) return;
      connect = loaded;
      connection.open();
      logger.info({ broker: connection.broker, topicRoot: topics.root }, 'MQTT bridge started');
      if (commandsIgnored) logger.warn({ broker: connection.broker }, `MQTT commands are ignored: ${commandsIgnored}; states are still published`);
    },
    async stop() {
      stopped = true;
      bridge?.stop();
      await connection?.close();
    },
  };
}
