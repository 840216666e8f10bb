import type { Clock, TimerHandle } from '../../../common/clock.ts';
import type { ControlSource, Device } from '../../contract/device.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import type { SafetyKind } from '../../events/bus.ts';
import { isOnStatus } from '../actions.ts';
import { MIN_USEFUL_RUN_MS, onTimeInWindowMs, RunLedger, type LedgerEntry } from './run-ledger.ts';

export interface RunLimitsDeps {
  clock: Clock;
  deviceSettings: () => DeviceSettings;
  switchOff: (deviceId: string, kind: SafetyKind, reason: string, then?: () => void) => void;
  emit: (kind: SafetyKind, deviceId: string, active: boolean, message: string) => void;
}

/**
 * Run budgets and run limits, from what the devices actually did (every source):
 * - a pump's on-time within any pumpRunWindowMinutes window is at most pumpMaxRunSeconds; a running pump
 *   is switched off when its budget is spent (PUMP_MAX_RUNTIME), and no off/on pattern resets the
 *   budget (it is a sliding window over the ledger, which is loaded from the control log at start);
 * - a heater switched on by a person or MQTT goes off after heaterMaxRunMinutes (HEATER_MAX_RUNTIME):
 *   nobody forgets a heater on for a week; in auto mode its rules, the cut-off and the fresh-reading
 *   rule bound it instead.
 */
export class RunLimits {
  readonly ledger = new RunLedger();
  readonly #pumpTimers = new Map<string, TimerHandle>();
  readonly #heaterTimers = new Map<string, TimerHandle>();

  constructor(private readonly deps: RunLimitsDeps) {}

  load(entries: readonly LedgerEntry[]): void {
    this.ledger.load(entries, this.deps.clock.now());
  }

  /** A device changed state (after the control path wrote it); `source` is who switched it. */
  onDeviceChanged(device: Device, source: ControlSource | null): void {
    const on = isOnStatus(device.status);
    this.ledger.record(device.deviceId, on, this.deps.clock.now());
    if (device.deviceType === 'WATER_PUMP') {
      if (on && !this.#pumpTimers.has(device.deviceId)) this.#armPump(device);
      if (!on) this.#clear(this.#pumpTimers, device.deviceId);
    }
    if (device.deviceType === 'HEATER') {
      if (on && (source === 'user' || source === 'mqtt') && !this.#heaterTimers.has(device.deviceId)) this.#armHeater(device);
      if (!on) this.#clear(this.#heaterTimers, device.deviceId);
    }
  }

  /** The run budget of a pump that is on changed (a new window or limit): re-arm its timer. */
  rearm(devices: readonly Device[]): void {
    for (const device of devices) {
      if (device.deviceType !== 'WATER_PUMP' || !isOnStatus(device.status)) continue;
      this.#clear(this.#pumpTimers, device.deviceId);
      this.#armPump(device);
    }
  }

  forget(deviceId: string): void {
    this.#clear(this.#pumpTimers, deviceId);
    this.#clear(this.#heaterTimers, deviceId);
    this.ledger.forget(deviceId);
  }

  stop(): void {
    for (const timer of [...this.#pumpTimers.values(), ...this.#heaterTimers.values()]) this.deps.clock.clearTimeout(timer);
    this.#pumpTimers.clear();
    this.#heaterTimers.clear();
  }

  // The budget left now is the soonest the pump can run out; on-time dropping out of the window's far
  // end may leave some more, so the timer checks again and re-arms rather than trusting one estimate.
  #armPump(pump: Device): void {
    const { pumpMaxRunSeconds, pumpRunWindowMinutes } = this.deps.deviceSettings();
    const used = onTimeInWindowMs(this.ledger.runs(pump.deviceId), this.deps.clock.now(), pumpRunWindowMinutes * 60_000);
    const leftMs = pumpMaxRunSeconds * 1000 - used;
    if (leftMs < MIN_USEFUL_RUN_MS) {
      this.#pumpTimers.delete(pump.deviceId);
      const message = `${pump.deviceName} used its run budget of ${pumpMaxRunSeconds} s within ${pumpRunWindowMinutes} min and was switched off`;
      this.deps.switchOff(pump.deviceId, 'PUMP_MAX_RUNTIME', message, () => this.deps.emit('PUMP_MAX_RUNTIME', pump.deviceId, true, message));
      return;
    }
    this.#pumpTimers.set(pump.deviceId, this.deps.clock.setTimeout(() => this.#armPump(pump), leftMs));
  }

  #armHeater(heater: Device): void {
    const minutes = this.deps.deviceSettings().heaterMaxRunMinutes;
    const timer = this.deps.clock.setTimeout(() => {
      this.#heaterTimers.delete(heater.deviceId);
      const message = `${heater.deviceName} ran ${minutes} min after being switched on by hand and was switched off (heater run limit)`;
      this.deps.switchOff(heater.deviceId, 'HEATER_MAX_RUNTIME', message, () => this.deps.emit('HEATER_MAX_RUNTIME', heater.deviceId, true, message));
    }, minutes * 60_000);
    this.#heaterTimers.set(heater.deviceId, timer);
  }

  #clear(timers: Map<string, TimerHandle>, deviceId: string): void {
    const timer = timers.get(deviceId);
    if (timer) this.deps.clock.clearTimeout(timer);
    timers.delete(deviceId);
  }
}
