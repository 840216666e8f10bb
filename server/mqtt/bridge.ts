import { commandFailureOf } from './command-error.ts';
import type { IPublishPacket } from 'mqtt';
import type { Logger } from 'pino';
import type { Alert } from '../contract/alert.ts';
import type { Device, DeviceType } from '../contract/device.ts';
import type { SensorSnapshot } from '../contract/reading.ts';
import type { ControlService } from '../devices/control-service.ts';
import type { EventBus } from '../events/bus.ts';
import type { Discovery } from './discovery.ts';
import { allSensorsUpdate } from '../sensors/all-sensors-update.ts';
import { QUANTITIES } from './quantities.ts';
import type { MqttConnection } from './connection.ts';
import { deviceStatePayload, parseCommand, type Topics } from './topics.ts';

export interface BridgeDeps {
  connection: MqttConnection;
  topics: Topics;
  /** Null when Home Assistant discovery is off. */
  discovery: Discovery | null;
  greenhouseId: string;
  bus: EventBus;
  control: Pick<ControlService, 'control'>;
  listDevices: () => Device[];
  snapshot: () => SensorSnapshot;
  logger: Logger;
}

/** Commands waiting for the control path; past this an MQTT flood is refused rather than queued without end. */
const MAX_PENDING_COMMANDS = 32;

/**
 * The gateway as an MQTT citizen (design.md, Fleet): states out, commands in, discovery for Home
 * Assistant. Everything it publishes goes through the connection's bounded outbox, so the bus
 * listeners here return at once and the sampler and the control path never wait for the broker.
 */
export class MqttBridge {
  readonly #deps: BridgeDeps;
  /** The last retained payload queued per topic: unchanged states are not sent again. */
  readonly #lastRetained = new Map<string, string>();
  /** Device types by id, to clear the right discovery config once a device is gone. */
  readonly #deviceTypes = new Map<string, DeviceType>();
  /** Fields that have had a value: VPD, dew point and unconfigured quantities are announced only then. */
  readonly #seen = new Set<string>();
  #pendingCommands = 0;
  #commandsReceived = 0;

  constructor(deps: BridgeDeps) {
    this.#deps = deps;
  }

  get commandsReceived(): number {
    return this.#commandsReceived;
  }

  start(): void {
    const { bus, connection } = this.#deps;
    const owner = 'mqtt';
    for (const device of this.#deps.listDevices()) this.#deviceTypes.set(device.deviceId, device.deviceType);
    connection.onConnect(() => this.#onConnect());
    connection.onMessage((topic, payload, packet) => this.#onMessage(topic, payload, packet));
    // Cleared by owner in stop() (bus.removeAll).
    bus.on('sampleTaken', owner, ({ snapshot }) => this.#publishSensors(snapshot));
    bus.on('deviceChanged', owner, ({ device }) => this.#publishDevice(device));
    bus.on('deviceAdded', owner, ({ device }) => this.#publishDevice(device));
    bus.on('deviceRemoved', owner, ({ deviceId }) => this.#clearDevice(deviceId));
    bus.on('alertRaised', owner, ({ alert }) => this.#publishAlert('newAlert', alert));
    bus.on('alertResolved', owner, ({ alert }) => this.#publishAlert('alertResolved', alert));
  }

  stop(): void {
    this.#deps.bus.removeAll('mqtt');
  }

  /** A (re)connection: the broker may have lost every retained message, so all of them go again. */
  #onConnect(): void {
    const { connection, topics, discovery } = this.#deps;
    this.#lastRetained.clear();
    const filters = [topics.commandFilter];
    if (discovery) filters.push(discovery.configFilter, discovery.homeAssistantStatus);
    connection.subscribe(filters);
    this.#publishAll();
  }

  #publishAll(): void {
    const devices = this.#deps.listDevices();
    for (const message of this.#wantedConfigs(devices)) this.#retained(message.topic, message.payload);
    for (const device of devices) this.#retained(this.#deps.topics.deviceState(device.deviceId), deviceStatePayload(device));
    const snapshot = this.#deps.snapshot();
    if (Object.values(snapshot.values).some((v) => v !== null)) this.#publishSensors(snapshot);
  }

  #wantedConfigs(devices: readonly Device[]) {
    return this.#deps.discovery?.configs(devices, this.#seen) ?? [];
  }

  #publishSensors(snapshot: SensorSnapshot): void {
    const { discovery, topics, greenhouseId } = this.#deps;
    const state = allSensorsUpdate(greenhouseId, snapshot);
    const appeared = QUANTITIES.map((q) => q.field).filter((field) => !this.#seen.has(field) && state[field as keyof typeof state] !== null);
    for (const field of appeared) this.#seen.add(field);
    if (discovery && appeared.length > 0) {
      for (const message of this.#wantedConfigs(this.#deps.listDevices())) this.#retained(message.topic, message.payload);
    }
    this.#retained(topics.sensorsState, JSON.stringify(state));
  }

  #publishDevice(device: Device): void {
    const { topics, discovery } = this.#deps;
    this.#deviceTypes.set(device.deviceId, device.deviceType);
    // A renamed device gets a new config (unchanged ones are skipped by #retained).
    if (discovery) {
      const config = discovery.device(device);
      this.#retained(config.topic, config.payload);
    }
    this.#retained(topics.deviceState(device.deviceId), deviceStatePayload(device));
  }

  /** An empty retained payload removes the config from Home Assistant and the state from the broker. */
  #clearDevice(deviceId: string): void {
    const { topics, discovery } = this.#deps;
    const deviceType = this.#deviceTypes.get(deviceId);
    this.#deviceTypes.delete(deviceId);
    if (discovery && deviceType) {
      const cleared = discovery.cleared({ deviceId, deviceType });
      this.#retained(cleared.topic, '');
    }
    this.#retained(topics.deviceState(deviceId), '');
  }

  #publishAlert(event: 'newAlert' | 'alertResolved', alert: Alert): void {
    this.#deps.connection.push(this.#deps.topics.alerts, JSON.stringify({ event, alert }), false);
  }

  #retained(topic: string, payload: string): void {
    if (this.#lastRetained.get(topic) === payload) return;
    this.#lastRetained.set(topic, payload);
    this.#deps.connection.push(topic, payload, true);
  }

  #onMessage(topic: string, payload: string, packet: IPublishPacket): void {
    const { topics, discovery } = this.#deps;
    const deviceId = topics.commandDeviceId(topic);
    if (deviceId !== null) {
      this.#onCommand(deviceId, payload, packet.retain);
      return;
    }
    if (!discovery) return;
    if (topic === discovery.homeAssistantStatus) {
      // Home Assistant restarted: send configs and states again (retained copies may be gone too).
      if (payload === 'online') {
        this.#lastRetained.clear();
        this.#publishAll();
      }
      return;
    }
    // A retained config of ours that nothing wants any more (a device removed while we were away).
    // Every quantity counts as wanted even before this run has read it, so none flaps at start.
    const wanted = discovery.configs(this.#deps.listDevices(), new Set(QUANTITIES.map((q) => q.field)));
    if (payload !== '' && !wanted.some((m) => m.topic === topic)) {
      this.#deps.logger.info({ topic }, 'clearing a Home Assistant config for a device that no longer exists');
      this.#deps.connection.push(topic, '', true);
    }
  }

  #onCommand(deviceId: string, payload: string, retained: boolean): void {
    const { logger, control, connection, topics } = this.#deps;
    // A retained command would switch the device again at every reconnect: never obey one.
    if (retained) {
      logger.warn({ deviceId, payload }, 'ignored a retained MQTT command (publish commands without the retain flag)');
      return;
    }
    this.#commandsReceived++;
    const answer = (ok: boolean, message: string, status?: string, lock?: string) =>
      connection.push(topics.deviceResult(deviceId), JSON.stringify({ command: payload, ok, message, ...(status ? { status } : {}), ...(lock ? { lock } : {}) }), false);
    const action = parseCommand(payload);
    if (!action) {
      answer(false, `Unknown command ${JSON.stringify(payload.slice(0, 32))}: expected ON, OFF, OPEN or CLOSE`);
      return;
    }
    if (this.#pendingCommands >= MAX_PENDING_COMMANDS) {
      answer(false, 'Too many MQTT commands waiting: try again');
      return;
    }
    this.#pendingCommands++;
    control
      .control({ deviceId, action, source: 'mqtt', actor: 'mqtt' })
      .then(
        (result) => answer(true, result.message, result.device.status),
        (err: unknown) => {
          const failure = commandFailureOf(err);
          if (failure.internal) logger.error({ err, deviceId, payload }, 'MQTT command failed');
          else logger.warn({ deviceId, payload, reason: failure.message }, 'MQTT command refused');
          // The lock's kind, so an automation on the broker can tell a run budget from a dry tank.
          answer(false, failure.message, undefined, failure.lock);
        },
      )
      .finally(() => this.#pendingCommands--);
  }
}
