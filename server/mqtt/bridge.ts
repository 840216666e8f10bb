import { commandFailureOf } from './command-error.ts';
import type { IPublishPacket } from 'mqtt';
import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { Alert } from '../contract/alert.ts';
import { isTopicSafeDeviceId } from '../contract/common.ts';
import type { Device, DeviceType } from '../contract/device.ts';
import type { SensorSnapshot } from '../contract/reading.ts';
import type { WaterDay } from '../contract/irrigation.ts';
import type { ControlService } from '../devices/control-service.ts';
import type { EventBus } from '../events/bus.ts';
import type { Discovery } from './discovery.ts';
import { ForeignConfigs } from './foreign-configs.ts';
import { InputGuard, type DropReason, type InputLimits } from './input-guard.ts';
import { allSensorsUpdate } from '../sensors/all-sensors-update.ts';
import { QUANTITIES } from './quantities.ts';
import type { MqttConnection } from './connection.ts';
import { deviceStatePayload, parseCommand, windowPositionPayload, type Topics } from './topics.ts';
import { isServo } from '../devices/actions.ts';

export interface BridgeDeps {
  connection: MqttConnection;
  topics: Topics;
  /** Null when Home Assistant discovery is off. */
  discovery: Discovery | null;
  greenhouseId: string;
  bus: EventBus;
  control: Pick<ControlService, 'control'>;
  /** False without broker credentials: `/set` is not even subscribed to (feature.ts, NO_CREDENTIALS). */
  acceptCommands?: boolean;
  listDevices: () => Device[];
  snapshot: () => SensorSnapshot;
  /** A pump's water today (retained on `devices/<deviceId>/water` after each of its switches). */
  waterToday?: (deviceId: string) => WaterDay | null;
  logger: Logger;
  /** Wall-clock timers: input rates and the birth debounce are network time, whatever the simulator's clock does. */
  timers: Clock;
  inputLimits?: Partial<InputLimits>;
}

/** Commands waiting for the control path; past this an MQTT flood is refused rather than queued without end. */
const MAX_PENDING_COMMANDS = 32;
/** Home Assistant's birth messages within this window cause one republish (a restart loop or a flood, not 20,000). */
export const BIRTH_DEBOUNCE_MS = 5_000;
/** Largest payload on Home Assistant's own topics (its status word, a discovery config). */
const MAX_HA_PAYLOAD_BYTES = 16 * 1024;
/** Devices republished per turn of the event loop: 1,000 devices take 20 short turns, not one long one. */
const REPUBLISH_SLICE = 50;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The gateway as an MQTT citizen (docs/decisions.md, Fleet): states out, commands in, discovery for Home
 * Assistant. Everything it publishes goes through the connection's bounded outbox, so the bus
 * listeners here return at once and the sampler and the control path never wait for the broker.
 */
export class MqttBridge {
  readonly #deps: BridgeDeps;
  readonly #offs: Array<() => void> = [];
  /** The last retained payload queued per topic: unchanged states are not sent again. */
  readonly #lastRetained = new Map<string, string>();
  /** Device types by id, to clear the right discovery config once a device is gone. */
  readonly #deviceTypes = new Map<string, DeviceType>();
  /** VPD and dew point once they have had a value: only then are they announced to Home Assistant. */
  readonly #seen = new Set<string>();
  #pendingCommands = 0;
  #commandsReceived = 0;
  readonly #guard: InputGuard;
  #birthTimer: TimerHandle | null = null;
  /** Bumped by each republish (and stop): an older republish still slicing gives up. */
  #republish = 0;
  /** The discovery config topics this gateway wants, kept until a device is added or removed. */
  #wantedConfigTopics: Set<string> | null = null;
  readonly #foreignConfigs: ForeignConfigs;

  constructor(deps: BridgeDeps) {
    this.#deps = deps;
    this.#foreignConfigs = new ForeignConfigs({
      timers: deps.timers,
      logger: deps.logger,
      republish: (topic) => {
        const ours = this.#lastRetained.get(topic);
        if (ours !== undefined) deps.connection.push(topic, ours, true);
      },
    });
    this.#guard = new InputGuard({ limits: deps.inputLimits, nowMs: () => deps.timers.now(), isKnownDevice: (id) => this.#deviceTypes.has(id) });
  }

  /** Input dropped since start, by reason (for /api/metrics). */
  get inputDropped(): Readonly<Record<DropReason, number>> {
    return this.#guard.dropped;
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
    this.#offs.push(
      bus.on('sampleTaken', owner, ({ snapshot }) => this.#publishSensors(snapshot)),
      bus.on('deviceChanged', owner, ({ device }) => this.#publishDevice(device)),
      bus.on('deviceAdded', owner, ({ device }) => {
        this.#wantedConfigTopics = null;
        this.#publishDevice(device);
      }),
      bus.on('deviceRemoved', owner, ({ deviceId }) => {
        this.#wantedConfigTopics = null;
        this.#guard.forget(deviceId);
        this.#clearDevice(deviceId);
      }),
      bus.on('alertRaised', owner, ({ alert }) => this.#publishAlert('newAlert', alert)),
      bus.on('alertResolved', owner, ({ alert }) => this.#publishAlert('alertResolved', alert)),
    );
  }

  stop(): void {
    for (const off of this.#offs.splice(0)) off();
    if (this.#birthTimer) this.#deps.timers.clearTimeout(this.#birthTimer);
    this.#birthTimer = null;
    this.#foreignConfigs.stop();
    this.#republish++;
  }

  /** A (re)connection: the broker may have lost every retained message, so all of them go again. */
  #onConnect(): void {
    const { connection, topics, discovery } = this.#deps;
    this.#lastRetained.clear();
    const filters = this.#deps.acceptCommands === false ? [] : [topics.commandFilter];
    if (discovery) filters.push(discovery.configFilter, discovery.homeAssistantStatus);
    if (filters.length > 0) connection.subscribe(filters);
    void this.#publishAll();
  }

  /**
   * Every config and state again, a slice of devices per turn of the event loop: with a thousand
   * devices a reconnect must not hold sampling and control for seconds. Unchanged states are cheap:
   * the outbox keeps one message per retained topic.
   */
  async #publishAll(): Promise<void> {
    const run = ++this.#republish;
    const { discovery } = this.#deps;
    const devices = this.#deps.listDevices();
    for (const message of discovery?.configs([], this.#seen) ?? []) this.#retained(message.topic, message.payload);
    const snapshot = this.#deps.snapshot();
    if (Object.values(snapshot.values).some((v) => v !== null)) this.#publishSensors(snapshot);
    for (let i = 0; i < devices.length; i += REPUBLISH_SLICE) {
      if (i > 0) await nextTurn();
      if (run !== this.#republish) return;
      for (const device of devices.slice(i, i + REPUBLISH_SLICE)) {
        if (discovery) {
          const config = discovery.device(device);
          this.#retained(config.topic, config.payload);
        }
        this.#publishStates(device);
      }
    }
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
    // An id with a wildcard or a slash (a row from before ids were checked) is skipped (feature.ts).
    if (!isTopicSafeDeviceId(device.deviceId)) return;
    this.#deviceTypes.set(device.deviceId, device.deviceType);
    // A renamed device gets a new config (unchanged ones are skipped by #retained).
    if (discovery) {
      const config = discovery.device(device);
      this.#retained(config.topic, config.payload);
    }
    this.#publishStates(device);
    if (device.deviceType === 'WATER_PUMP') {
      const water = this.#deps.waterToday?.(device.deviceId);
      if (water) this.#retained(topics.deviceWater(device.deviceId), JSON.stringify(water));
    }
  }

  /** Its state, and for the roof window how far it is open. */
  #publishStates(device: Device): void {
    const { topics } = this.#deps;
    this.#retained(topics.deviceState(device.deviceId), deviceStatePayload(device));
    if (isServo(device.deviceType)) this.#retained(topics.devicePosition(device.deviceId), windowPositionPayload(device));
  }

  /** An empty retained payload removes the config from Home Assistant and the state from the broker. */
  #clearDevice(deviceId: string): void {
    const { topics, discovery } = this.#deps;
    if (!isTopicSafeDeviceId(deviceId)) return;
    const deviceType = this.#deviceTypes.get(deviceId);
    this.#deviceTypes.delete(deviceId);
    if (discovery && deviceType) {
      const cleared = discovery.cleared({ deviceId, deviceType });
      this.#retained(cleared.topic, '');
    }
    this.#retained(topics.deviceState(deviceId), '');
    if (deviceType && isServo(deviceType)) this.#retained(topics.devicePosition(deviceId), '');
    if (deviceType === 'WATER_PUMP') this.#retained(topics.deviceWater(deviceId), '');
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
    const bytes = packet.payload.length;
    if (deviceId !== null) {
      if (this.#deps.acceptCommands === false) return;
      // A retained command is ignored before it is counted against the device's rate.
      if (packet.retain || this.#guard.admitCommand(deviceId, bytes)) this.#onCommand(deviceId, payload, packet.retain, bytes);
      return;
    }
    if (!discovery) return;
    if (topic === discovery.homeAssistantStatus) {
      if (!this.#guard.admitOther(bytes, MAX_HA_PAYLOAD_BYTES)) return;
      // Home Assistant restarted: send configs and states again (retained copies may be gone too),
      // once per debounce window however many births arrive.
      if (payload === 'online' && !this.#birthTimer) {
        this.#birthTimer = this.#deps.timers.setTimeout(() => {
          this.#birthTimer = null;
          this.#lastRetained.clear();
          void this.#publishAll();
        }, BIRTH_DEBOUNCE_MS);
      }
      return;
    }
    // Our own retained configs come back once each at subscription: a size check and a set lookup.
    if (bytes > MAX_HA_PAYLOAD_BYTES) return;
    // A retained config of ours that nothing wants any more (a device removed while we were away).
    // Every quantity counts as wanted even before this run has read it, so none flaps at start.
    this.#wantedConfigTopics ??= new Set(discovery.configs(this.#deps.listDevices(), new Set(QUANTITIES.map((q) => q.field))).map((m) => m.topic));
    if (!this.#wantedConfigTopics.has(topic)) {
      if (payload === '') return;
      this.#deps.logger.info({ topic }, 'clearing a Home Assistant config for a device that no longer exists');
      this.#deps.connection.push(topic, '', true);
      return;
    }
    // One of our topics with a config we did not publish (or an empty one that deletes the entity).
    const ours = this.#lastRetained.get(topic);
    if (ours !== undefined && payload !== ours) this.#foreignConfigs.seen(topic, bytes);
  }

  #onCommand(deviceId: string, payload: string, retained: boolean, bytes: number): void {
    const { logger, control, connection, topics } = this.#deps;
    // A retained command would switch the device again at every reconnect: never obey one.
    if (retained) {
      // Payloads are logged by size only: whoever may publish must not be able to write into the journal.
      logger.warn({ deviceId, bytes }, 'ignored a retained MQTT command (publish commands without the retain flag)');
      return;
    }
    this.#commandsReceived++;
    const action = parseCommand(payload);
    // The answer names the command word it understood, never echoes the input: junk never comes back
    // larger than it went in (the input guard bounds how many answers a flood gets).
    const command = action ? payload.trim().toUpperCase() : null;
    const answer = (ok: boolean, message: string, status?: string, lock?: string) =>
      connection.push(topics.deviceResult(deviceId), JSON.stringify({ command, ok, message, ...(status ? { status } : {}), ...(lock ? { lock } : {}) }), false);
    if (!action) {
      answer(false, 'Unknown command: expected ON, OFF, OPEN or CLOSE');
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
          if (failure.internal) logger.error({ err, deviceId, command }, 'MQTT command failed');
          else logger.warn({ deviceId, command, reason: failure.message }, 'MQTT command refused');
          // The lock's kind, so an automation on the broker can tell a run budget from a dry tank.
          answer(false, failure.message, undefined, failure.lock);
        },
      )
      .finally(() => this.#pendingCommands--);
  }
}
