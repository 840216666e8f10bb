import type { Clock } from '../../../common/clock.ts';
import type { Device } from '../../contract/device.ts';
import { STALE_AFTER_MS, type SensorSnapshot } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import type { SafetyKind } from '../../events/bus.ts';
import { isOnStatus } from '../actions.ts';

export interface HeaterCutoffDeps {
  clock: Clock;
  deviceSettings: () => DeviceSettings;
  listDevices: () => Device[];
  /** Which devices count as heaters (the safety layer decides: by what their output physically drives). */
  isHeater: (device: Device) => boolean;
  switchOff: (deviceId: string, kind: SafetyKind, reason: string) => void;
  emit: (kind: SafetyKind, deviceId: string, active: boolean, message: string) => void;
}

/**
 * Heater cut-off (docs/decisions.md, Safety beyond the rules): above deviceSettings.heaterCutoffC safety
 * switches every heater off; its lock (./locks.ts) refuses to switch one on, for users and rules alike. It releases once
 * the air is back below the cut-off by the temperature deadband, so a reading hovering at the limit
 * does not flap it. A stale temperature never acts (no automatic action on stale data) but keeps an
 * engaged cut-off engaged.
 */
export class HeaterCutoff {
  #engaged = false;
  #last: { temperatureC: number; readAtMs: number } | null = null;

  constructor(private readonly deps: HeaterCutoffDeps) {}

  get engaged(): boolean {
    return this.#engaged;
  }

  onSnapshot(snapshot: SensorSnapshot): void {
    const temperatureC = snapshot.values.temperature;
    const readAtMs = snapshot.readAtMs.temperature;
    if (temperatureC !== null && readAtMs !== null) this.#last = { temperatureC, readAtMs };
    this.check();
  }

  /** Applies the cut-off to the newest temperature now (each tick, and when the cut-off setting changes). */
  check(): void {
    const fresh = this.#freshC();
    if (fresh === null) return;
    const { heaterCutoffC, deadband } = this.deps.deviceSettings();
    const heaters = this.deps.listDevices().filter(this.deps.isHeater);
    if (!this.#engaged && fresh > heaterCutoffC) {
      this.#engaged = true;
      const message = `Air temperature ${fresh.toFixed(1)} °C is above the heater cut-off of ${heaterCutoffC} °C: heaters are switched off and may not run`;
      for (const heater of heaters) this.deps.emit('HEATER_CUTOFF', heater.deviceId, true, message);
    } else if (this.#engaged && fresh <= heaterCutoffC - deadband.temperatureC) {
      this.#engaged = false;
      const message = `Air temperature back to ${fresh.toFixed(1)} °C (cut-off ${heaterCutoffC} °C): heaters may run again`;
      for (const heater of heaters) this.deps.emit('HEATER_CUTOFF', heater.deviceId, false, message);
    }
    if (!this.#engaged) return;
    for (const heater of heaters.filter((h) => isOnStatus(h.status))) {
      this.deps.switchOff(heater.deviceId, 'HEATER_CUTOFF', `Air temperature ${fresh.toFixed(1)} °C above the heater cut-off of ${heaterCutoffC} °C: heater switched off`);
    }
  }

  /** The air is above the cut-off now (a fresh reading): heaters are locked even before the next check. */
  aboveNow(): boolean {
    const fresh = this.#freshC();
    return fresh !== null && fresh > this.deps.deviceSettings().heaterCutoffC;
  }

  #freshC(): number | null {
    if (!this.#last || this.deps.clock.now() - this.#last.readAtMs > STALE_AFTER_MS) return null;
    return this.#last.temperatureC;
  }
}
