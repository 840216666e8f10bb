// A device's locks as a grower reads them. The gateway writes each lock's sentence; the card adds
// "until HH:MM" when the lock ends by time and the sentence does not already say when.
import type { Device, DeviceLock } from '../../../../server/contract/device.ts';
import { sinceWords } from './control-words.ts';
import { switchesOn } from './device-ui.ts';

/** 'Tank low (4.2 cm): pump locked ... · until 03:12'. */
export function lockSentence(lock: DeviceLock, nowMs: number): string {
  if (!lock.until) return lock.text;
  const until = sinceWords(lock.until, nowMs);
  return lock.text.includes(until) ? lock.text : `${lock.text} · until ${until}`;
}

/**
 * What keeps the card's control button from working now, or null: the gateway being unreachable stops
 * everything; a lock (maintenance included) stops only switching on or opening, never switching off.
 */
export function blockedControl(device: Device, gatewayBlocked: string | null, maintenanceBlocked: string | null): { reason: string; lockedOn: boolean } | null {
  if (gatewayBlocked) return { reason: gatewayBlocked, lockedOn: false };
  if (!switchesOn(device)) return null;
  if (device.locks.length > 0) return { reason: `${onWord(device)} is locked`, lockedOn: true };
  if (maintenanceBlocked) return { reason: maintenanceBlocked, lockedOn: false };
  return null;
}

const onWord = (device: Device) => (device.deviceType === 'SERVO' ? 'Opening' : 'Switching on');
