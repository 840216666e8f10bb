import type { ControlSource, Device, DeviceLock } from '../../contract/device.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import { isOnStatus } from '../actions.ts';
import type { AirTemperature } from './air-temperature.ts';
import { budgetAvailableAtMs, onTimeInWindowMs, SWITCH_RATE_WINDOW_MS, type RunInterval } from './run-ledger.ts';

/** Everything the locks of one device depend on, gathered by the SafetySupervisor. */
export interface LockInput {
  /** The device typed by its wiring. */
  device: Device;
  /** Every device, typed by its wiring (the heater/cooling interlock). */
  devices: readonly Device[];
  /** Who asks: the sensor-loss duty cycle (source 'safety') may run a heater without a reading. */
  source: ControlSource;
  nowMs: number;
  deviceSettings: DeviceSettings;
  maintenanceMode: boolean;
  /** Tank level when the dry-run lockout is engaged (null = level unknown), undefined when not engaged. */
  dryRunLevelCm: number | null | undefined;
  /** Air temperature when the heater cut-off is engaged, undefined when not engaged. */
  cutoffC: number | null | undefined;
  air: AirTemperature;
  /** The auto-mode sensor-loss fail-safe holds this device off, with its reason. */
  sensorLoss: string | null;
  runs: readonly RunInterval[];
  lastOffMs: number | null;
  switchOnsInHour: readonly number[];
}

const OPPOSITE: Partial<Record<Device['deviceType'], Device['deviceType']>> = { HEATER: 'COOLING_SYSTEM', COOLING_SYSTEM: 'HEATER' };
/** minOffSeconds protects motors and heating elements, not fans, lights or the window. */
const MIN_OFF_TYPES: ReadonlySet<Device['deviceType']> = new Set(['WATER_PUMP', 'HEATER']);

/** Local clock time: HH:MM, with seconds when the wait is short enough for them to matter. */
function clockTime(atMs: number, nowMs: number): string {
  const d = new Date(atMs);
  const two = (n: number) => String(n).padStart(2, '0');
  const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return atMs - nowMs < 120_000 ? `${hm}:${two(d.getSeconds())}` : hm;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What forbids switching the device on now, most fundamental first (the first is the one a refusal
 * names). Switching off is never locked. Pure: the same input gives the same locks, so the card, the
 * REST answer and the refusal always agree.
 */
export function locksOf(input: LockInput): DeviceLock[] {
  const { device, nowMs, deviceSettings: s } = input;
  const locks: DeviceLock[] = [];
  const type = device.deviceType;
  if (input.maintenanceMode) {
    locks.push({ kind: 'maintenance', text: 'Maintenance mode: device control is disabled except switching off' });
  }
  if (type === 'WATER_PUMP' && input.dryRunLevelCm !== undefined) {
    const level = input.dryRunLevelCm === null ? 'level unknown' : `${input.dryRunLevelCm.toFixed(1)} cm`;
    locks.push({ kind: 'dry_run', text: `Tank low (${level}, minimum ${s.tankLowLevelCm} cm): pump locked to protect it from running dry` });
  }
  if (type === 'HEATER') {
    if (input.cutoffC !== undefined) {
      const air = input.cutoffC === null ? 'Air temperature' : `Air ${input.cutoffC.toFixed(1)} °C`;
      locks.push({ kind: 'cutoff', text: `${air} is above the heater cut-off of ${s.heaterCutoffC} °C: heater locked` });
    }
    const dutyRun = input.source === 'safety' && device.autoMode && device.sensorLossAction === 'duty';
    if (!input.air.fresh && !dutyRun) {
      locks.push({ kind: 'no_reading', text: `Air temperature unknown (${input.air.why}): a heater never runs blind` });
    }
  }
  if (input.sensorLoss !== null && device.autoMode && input.source !== 'safety') {
    locks.push({ kind: 'sensor_loss', text: `Auto mode fail-safe: ${input.sensorLoss}` });
  }
  const opposite = OPPOSITE[type];
  const running = opposite ? input.devices.find((d) => d.deviceType === opposite && isOnStatus(d.status)) : undefined;
  if (running) {
    locks.push({ kind: 'interlock', text: `${running.deviceName} is running: heater and cooling never run together` });
  }
  if (type === 'WATER_PUMP') {
    const windowMs = s.pumpRunWindowMinutes * 60_000;
    const availableAt = budgetAvailableAtMs(input.runs, nowMs, windowMs, s.pumpMaxRunSeconds * 1000);
    if (availableAt !== null) {
      const usedS = Math.round(onTimeInWindowMs(input.runs, nowMs, windowMs) / 1000);
      locks.push({
        kind: 'run_budget',
        text: `Run budget spent: ${usedS} s in the last ${s.pumpRunWindowMinutes} min (limit ${s.pumpMaxRunSeconds} s); available again at ${clockTime(availableAt, nowMs)}`,
        until: iso(availableAt),
      });
    }
  }
  if (MIN_OFF_TYPES.has(type) && input.lastOffMs !== null && !isOnStatus(device.status)) {
    const until = input.lastOffMs + s.minOffSeconds * 1000;
    if (until > nowMs) {
      locks.push({ kind: 'min_off', text: `Resting: minimum off time of ${s.minOffSeconds} s; available again at ${clockTime(until, nowMs)}`, until: iso(until) });
    }
  }
  if (!isOnStatus(device.status) && input.switchOnsInHour.length >= s.maxSwitchesPerHour) {
    const until = input.switchOnsInHour[input.switchOnsInHour.length - s.maxSwitchesPerHour]! + SWITCH_RATE_WINDOW_MS;
    locks.push({
      kind: 'switch_rate',
      text: `Switched on ${input.switchOnsInHour.length} times in the last hour (limit ${s.maxSwitchesPerHour}): relay protected; available again at ${clockTime(until, nowMs)}`,
      until: iso(until),
    });
  }
  return locks;
}
