import type { Device, DeviceType } from '../contract/device.ts';
import { isServo } from '../devices/actions.ts';
import type { QuantityKey } from '../../common/catalogue.ts';
import { QUANTITIES, type Quantity } from './quantities.ts';
import { OFFLINE, ONLINE, type Topics } from './topics.ts';

/** The gateway as one Home Assistant device: every entity of this greenhouse hangs under it. */
export interface GatewayIdentity {
  greenhouseId: string;
  model: string;
  swVersion: string;
}

export interface DiscoveryMessage {
  topic: string;
  /** The config JSON; '' clears a config that is no longer wanted. */
  payload: string;
}

const ICONS: Partial<Record<DeviceType, string>> = {
  FAN: 'mdi:fan',
  WATER_PUMP: 'mdi:water-pump',
  LED_LIGHT: 'mdi:lightbulb-on',
  HEATER: 'mdi:radiator',
  COOLING_SYSTEM: 'mdi:snowflake',
};

/** Home Assistant accepts [a-zA-Z0-9_-] in node and object ids. */
const safeId = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * Builds the Home Assistant MQTT discovery configs of one gateway (retained at
 * `<prefix>/<component>/<node_id>/<object_id>/config`, node_id = the greenhouse id). Pure: the bridge
 * decides when to publish and which stale configs to clear.
 */
export class Discovery {
  readonly #prefix: string;
  readonly #topics: Topics;
  readonly #identity: GatewayIdentity;
  readonly #nodeId: string;
  readonly #measured: ReadonlySet<QuantityKey> | null;

  /**
   * `measured`: the quantities the configured sensors measure, announced from the start; any other
   * (and VPD and dew point) only once it has had a value, so a house without a CO2 sensor shows no
   * CO2 entity. Without it every catalogue quantity is announced.
   */
  constructor(options: { prefix: string; topics: Topics; identity: GatewayIdentity; measured?: ReadonlySet<QuantityKey> }) {
    this.#measured = options.measured ?? null;
    this.#prefix = options.prefix;
    this.#topics = options.topics;
    this.#identity = options.identity;
    this.#nodeId = safeId(options.identity.greenhouseId);
  }

  /** The subscription that finds this gateway's retained configs (to clear those nobody wants). */
  get configFilter(): string {
    return `${this.#prefix}/+/${this.#nodeId}/+/config`;
  }

  /** Home Assistant announces its own restarts here (`online`): the cue to publish again. */
  get homeAssistantStatus(): string {
    return `${this.#prefix}/status`;
  }

  /** Every config this gateway wants now, for its devices and the quantities it has seen. */
  configs(devices: readonly Device[], seen: ReadonlySet<string>): DiscoveryMessage[] {
    const wanted = (q: Quantity) => seen.has(q.field) || (q.key !== null && (this.#measured === null || this.#measured.has(q.key)));
    const sensors = QUANTITIES.filter(wanted).map((q) => this.#sensor(q));
    return [...sensors, ...devices.map((d) => this.device(d))];
  }

  /** The config of one device: a switch per relay, a cover for the roof window. */
  device(device: Device): DiscoveryMessage {
    const stateTopic = this.#topics.deviceState(device.deviceId);
    const commandTopic = this.#topics.deviceCommand(device.deviceId);
    const base = {
      name: device.deviceName,
      unique_id: this.#uniqueId(device.deviceId),
      state_topic: stateTopic,
      command_topic: commandTopic,
      qos: 1,
      // Commands are never retained: a retained ON would switch the device again at every reconnect.
      retain: false,
      ...this.#common(),
    };
    if (isServo(device.deviceType)) {
      return this.#message('cover', device.deviceId, {
        ...base,
        device_class: 'window',
        payload_open: 'OPEN',
        payload_close: 'CLOSE',
        payload_stop: null,
        state_open: 'OPEN',
        state_closed: 'CLOSED',
        // A climate program opens it in proportion (docs/climate.md): Home Assistant shows how far.
        position_topic: this.#topics.devicePosition(device.deviceId),
        position_open: 100,
        position_closed: 0,
        icon: 'mdi:window-open-variant',
      });
    }
    return this.#message('switch', device.deviceId, {
      ...base,
      device_class: 'switch',
      payload_on: 'ON',
      payload_off: 'OFF',
      state_on: 'ON',
      state_off: 'OFF',
      icon: ICONS[device.deviceType],
    });
  }

  /** The empty retained payload that makes Home Assistant forget a removed device. */
  cleared(device: Pick<Device, 'deviceId' | 'deviceType'>): DiscoveryMessage {
    return { topic: this.#topic(isServo(device.deviceType) ? 'cover' : 'switch', device.deviceId), payload: '' };
  }

  #sensor(quantity: Quantity): DiscoveryMessage {
    return this.#message('sensor', quantity.objectId, {
      name: quantity.name,
      unique_id: this.#uniqueId(quantity.objectId),
      state_topic: this.#topics.sensorsState,
      // A field that was never read is null, which renders as None: Home Assistant shows "unknown".
      value_template: `{{ value_json.${quantity.field} }}`,
      device_class: quantity.deviceClass,
      unit_of_measurement: quantity.unit,
      state_class: 'measurement',
      qos: 1,
      ...this.#common(),
    });
  }

  #common() {
    const { greenhouseId, model, swVersion } = this.#identity;
    return {
      availability_topic: this.#topics.status,
      payload_available: ONLINE,
      payload_not_available: OFFLINE,
      device: {
        identifiers: [`greenhouse_gateway_${this.#nodeId}`],
        name: `Greenhouse ${greenhouseId}`,
        manufacturer: 'Greenhouse gateway',
        model,
        sw_version: swVersion,
        serial_number: greenhouseId,
      },
      origin: { name: 'greenhouse-gateway', sw_version: swVersion },
    };
  }

  #uniqueId(objectId: string): string {
    return `greenhouse_${this.#nodeId}_${safeId(objectId)}`;
  }

  #topic(component: string, objectId: string): string {
    return `${this.#prefix}/${component}/${this.#nodeId}/${safeId(objectId)}/config`;
  }

  #message(component: string, objectId: string, config: Record<string, unknown>): DiscoveryMessage {
    return { topic: this.#topic(component, objectId), payload: JSON.stringify(config) };
  }
}
