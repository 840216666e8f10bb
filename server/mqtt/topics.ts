import type { ControlAction, Device } from '../contract/device.ts';
import { isOnStatus, isServo } from '../devices/actions.ts';

/**
 * The topics of one gateway (docs/decisions.md, Fleet), all under `<baseTopic>/<greenhouseId>/`:
 * `status` (retained online / offline as the last will), `sensors/state` (each tick),
 * `devices/<deviceId>/state` (retained), `devices/<deviceId>/set` (commands in),
 * `devices/<deviceId>/result` (the answer to each command), `alerts` (events).
 */
export class Topics {
  readonly root: string;

  constructor(baseTopic: string, greenhouseId: string) {
    this.root = `${baseTopic}/${greenhouseId}`;
  }

  get status(): string {
    return `${this.root}/status`;
  }

  get sensorsState(): string {
    return `${this.root}/sensors/state`;
  }

  get alerts(): string {
    return `${this.root}/alerts`;
  }

  /** The subscription that receives every device command. */
  get commandFilter(): string {
    return `${this.root}/devices/+/set`;
  }

  deviceState(deviceId: string): string {
    return `${this.root}/devices/${deviceId}/state`;
  }

  /** Retained: how far the roof window is open, `0`-`100` (%), beside its OPEN/CLOSED state. */
  devicePosition(deviceId: string): string {
    return `${this.root}/devices/${deviceId}/position`;
  }

  /** Retained JSON of a pump's water today `{ date, pulses, runSeconds, litres }` (docs/irrigation.md). */
  deviceWater(deviceId: string): string {
    return `${this.root}/devices/${deviceId}/water`;
  }

  deviceCommand(deviceId: string): string {
    return `${this.root}/devices/${deviceId}/set`;
  }

  deviceResult(deviceId: string): string {
    return `${this.root}/devices/${deviceId}/result`;
  }

  /** The device id of a command topic, or null when the topic is not one. */
  commandDeviceId(topic: string): string | null {
    const prefix = `${this.root}/devices/`;
    if (!topic.startsWith(prefix) || !topic.endsWith('/set')) return null;
    const deviceId = topic.slice(prefix.length, -'/set'.length);
    return deviceId.length > 0 && !deviceId.includes('/') ? deviceId : null;
  }
}

export const ONLINE = 'online';
export const OFFLINE = 'offline';

/** `ON`/`OFF` for a relay, `OPEN`/`CLOSED` for the roof window (as Home Assistant's switch and cover read them). */
export function deviceStatePayload(device: Device): string {
  const on = isOnStatus(device.status);
  if (isServo(device.deviceType)) return on ? 'OPEN' : 'CLOSED';
  return on ? 'ON' : 'OFF';
}

/** The roof window's opening for Home Assistant's cover position: 0 when closed, else its openPct (fully open without one). */
export function windowPositionPayload(device: Device): string {
  return isOnStatus(device.status) ? String(Math.round(device.openPct ?? 100)) : '0';
}

const COMMANDS: Record<string, ControlAction> = { ON: 'on', OFF: 'off', OPEN: 'open', CLOSE: 'close' };

/**
 * The control action a command payload asks for, or null when it is not a command (`ON`, `OFF`,
 * `OPEN`, `CLOSE`, any case, surrounding blanks ignored). Whether it fits the device is the control
 * path's decision, as for REST.
 */
export function parseCommand(payload: string): ControlAction | null {
  return COMMANDS[payload.trim().toUpperCase()] ?? null;
}
