import type { ControlAction, DeviceStatus, DeviceType } from '../contract/device.ts';
import { invalid } from '../domain/errors.ts';

/** Pure mapping between actions, device types and statuses (docs/product.md §4, Control actions). */

export const isServo = (type: DeviceType): boolean => type === 'SERVO';

/** A device is "on" when it is energised (relay) or open (servo window). */
export const isOnStatus = (status: DeviceStatus): boolean => status === 'ON' || status === 'OPEN';

export const statusFor = (type: DeviceType, on: boolean): DeviceStatus =>
  isServo(type) ? (on ? 'OPEN' : 'CLOSED') : on ? 'ON' : 'OFF';

/** The safe state of every output: relays off, window closed (docs/decisions.md). */
export const safeStatusFor = (type: DeviceType): DeviceStatus => statusFor(type, false);

const ACTIONS_BY_TYPE: Record<string, readonly ControlAction[]> = {
  SERVO: ['open', 'close', 'toggle', 'on', 'off'],
  WATER_PUMP: ['turn_on', 'turn_off', 'toggle', 'on', 'off'],
};
const GENERIC_ACTIONS: readonly ControlAction[] = ['toggle', 'on', 'off'];

export function allowedActions(type: DeviceType): readonly ControlAction[] {
  return ACTIONS_BY_TYPE[type] ?? GENERIC_ACTIONS;
}

/**
 * The state an action asks for. Throws 400 naming `action` when the action does not fit the type
 * (e.g. 'open' on a FAN): a typo in a script must not switch the wrong way.
 */
export function targetState(type: DeviceType, action: ControlAction, currentlyOn: boolean): boolean {
  const allowed = allowedActions(type);
  if (!allowed.includes(action)) {
    throw invalid(`action '${action}' does not fit a ${type} device (allowed: ${allowed.join(', ')})`, 'action');
  }
  switch (action) {
    case 'on':
    case 'turn_on':
    case 'open':
      return true;
    case 'off':
    case 'turn_off':
    case 'close':
      return false;
    case 'toggle':
      return !currentlyOn;
  }
}

/** The action a rule or the safety layer records for a switch to `on` (as the dashboard would send it). */
export function actionFor(type: DeviceType, on: boolean): ControlAction {
  if (isServo(type)) return on ? 'open' : 'close';
  if (type === 'WATER_PUMP') return on ? 'turn_on' : 'turn_off';
  return on ? 'on' : 'off';
}

/** "turned on" / "opened", for messages. */
export function verbFor(type: DeviceType, on: boolean): string {
  if (isServo(type)) return on ? 'opened' : 'closed';
  return on ? 'turned on' : 'turned off';
}
