import type { Alert } from './alert.ts';
import type { ControlAction, ControlLog, Device, DeviceLock, DeviceStatus, StateReason } from './device.ts';
import type { AllSensorsUpdate, Reading } from './reading.ts';
import type { PublicUser } from './user.ts';

/**
 * Websocket messages are JSON `{ event, data }` both ways (docs/decisions.md, Realtime).
 * One map from event name to payload type; the server and the dashboard both use it.
 */
export interface ServerEvents {
  authenticated: { user: PublicUser };
  'greenhouse-joined': { greenhouseId: string };
  sensorUpdate: Reading;
  allSensorsUpdate: AllSensorsUpdate;
  newAlert: Alert;
  alertResolved: Alert;
  /** Someone acknowledged it: dashboards drop its CRITICAL banner at once. */
  alertAcknowledged: Alert;
  deviceUpdate: Device;
  'device-control-update': {
    greenhouseId: string;
    deviceId: string;
    action: string;
    status: DeviceStatus;
    controlLog: ControlLog | null;
    stateReason: StateReason | null;
    locks: DeviceLock[];
  };
  deviceControlled: { greenhouseId: string; device: Device; controlLog: ControlLog | null };
  deviceAdded: Device;
  deviceRemoved: { greenhouseId: string; deviceId: string };
  /** A client message was refused (bad shape, forbidden, conflict); the socket stays open. */
  error: { message: string; event?: string; status?: number; lock?: DeviceLock };
}

export interface ClientEvents {
  authenticate: { token: string };
  'join-greenhouse': string;
  'device-control': {
    deviceId: string;
    action: ControlAction;
    greenhouseId: string;
    extras?: Record<string, unknown>;
  };
}

export type ServerMessage = {
  [E in keyof ServerEvents]: { event: E; data: ServerEvents[E] };
}[keyof ServerEvents];

/** Close codes for missing, bad or expired authentication, and beyond the per-account cap. */
export { WS_CLOSE_UNAUTHORIZED, WS_CLOSE_TOO_MANY } from '../../common/catalogue.ts';
/** The account is pending an administrator's approval: it may not open the live stream. */
export const WS_CLOSE_FORBIDDEN = 4403;
/** Closes a socket beyond the gateway's total cap: the standard "try again later". */
export const WS_CLOSE_TRY_AGAIN_LATER = 1013;
