import type { ControlLog, Device, DeviceLock, StateReason } from '../contract/device.ts';
import { isOnStatus } from './actions.ts';

export interface StateViewDeps {
  /** What forbids switching the device on now (the safety layer's locks, as a person would be refused). */
  locksFor: (device: Device) => DeviceLock[];
  /** The device's newest control-log entry, or null. */
  newestLog: (deviceId: string) => ControlLog | null;
  /** A live safety state that explains the device better than its last switch (the sensor-loss fail-safe). */
  liveSafetyState: (deviceId: string) => { reason: string; sinceMs: number } | null;
  /** A program's live word (an irrigation soak or wait), which says more than its last switch. */
  liveProgramState?: (deviceId: string) => { reason: string; sinceMs: number } | null;
}

/**
 * The card's truth: why the device is in its state and what forbids switching it on, so the dashboard
 * can say it and disable a control before anyone taps. A live safety state wins over the log: a heater
 * cycling on frost duty says so even between its switches.
 */
export function explainDevice(device: Device, deps: StateViewDeps): Device {
  return { ...device, stateReason: stateReasonOf(device, deps), locks: deps.locksFor(device) };
}

function stateReasonOf(device: Device, deps: StateViewDeps): StateReason | null {
  const live = deps.liveSafetyState(device.deviceId);
  if (live) {
    const state = isOnStatus(device.status) ? 'On' : 'Off';
    return { source: 'safety', text: `${state}: ${live.reason}`, since: new Date(live.sinceMs).toISOString() };
  }
  const program = device.autoMode ? deps.liveProgramState?.(device.deviceId) : null;
  if (program) {
    const state = isOnStatus(device.status) ? 'On' : 'Off';
    return { source: 'rule', text: `${state}: ${program.reason}`, since: new Date(program.sinceMs).toISOString() };
  }
  const newest = deps.newestLog(device.deviceId);
  return newest ? { source: newest.source, text: newest.reason, since: newest.timestamp } : null;
}
