import type { Clock } from '../../common/clock.ts';
import type { SensorSnapshot } from '../contract/reading.ts';
import { unavailable } from '../domain/errors.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { isOnStatus } from './actions.ts';
import type { ControlService } from './control-service.ts';
import type { DeviceRegistry } from './device-registry.ts';
import type { DevicesRepo } from './devices-repo.ts';
import { evaluateRules, hasAutomation } from './rules/engine.ts';
import { configuredRules } from './rules/rule-kinds.ts';

export interface QuickActionsDeps {
  repo: DevicesRepo;
  registry: DeviceRegistry;
  control: ControlService;
  settings: SettingsService;
  latestSnapshot: () => SensorSnapshot | null;
  clock: Clock;
}

/** The Devices screen's Quick Actions panel. */
export class QuickActions {
  constructor(private readonly deps: QuickActionsDeps) {}

  /**
   * Everything off and staying off: auto mode is switched off first on every device that had it, or
   * its rules would switch it back on at the next tick (a fan was back on within 45 s).
   */
  async turnOffAll(actor: string): Promise<{ devicesTurnedOff: number; autoModeDisabled: number }> {
    // The emergency button: one device that cannot be written (a full SD card) or driven stops no other.
    const problems: string[] = [];
    let autoModeDisabled = 0;
    for (const device of this.deps.repo.list().filter((d) => d.autoMode)) {
      try {
        this.deps.registry.setAutomation(device.deviceId, { autoMode: false });
        autoModeDisabled += 1;
      } catch (err) {
        // Held off in memory, or its rules would switch it back on at the next tick.
        this.deps.repo.holdAutoModeOff(device.deviceId);
        autoModeDisabled += 1;
        problems.push(`${device.deviceName}: auto mode off, but not recorded (${(err as Error).message})`);
      }
    }
    let devicesTurnedOff = 0;
    for (const device of this.deps.repo.list().filter((d) => isOnStatus(d.status))) {
      try {
        await this.deps.control.switchOff(device.deviceId, 'user', actor, 'Turn Off All Devices');
      } catch (err) {
        problems.push((err as Error).message);
      }
      const now = this.deps.repo.find(device.deviceId);
      if (now && !isOnStatus(now.status)) devicesTurnedOff += 1;
    }
    if (problems.length > 0) throw unavailable(`Turn Off All: ${devicesTurnedOff} turned off; ${problems.join('; ')}`);
    return { devicesTurnedOff, autoModeDisabled };
  }

  /** Auto mode on for every device that has a rule or a schedule (auto mode without either does nothing). */
  enableAuto(): { devicesEnabled: number } {
    let devicesEnabled = 0;
    for (const device of this.deps.repo.list()) {
      if (device.autoMode || !hasAutomation(device.automationRules)) continue;
      this.deps.registry.setAutomation(device.deviceId, { autoMode: true });
      devicesEnabled += 1;
    }
    return { devicesEnabled };
  }

  /**
   * Switches off manual (non-auto) devices that are on although none of their rules needs them now
   * (a device without rules is never "needed" by a rule). Auto-mode devices are the rule engine's.
   */
  async optimizePower(actor: string): Promise<{ devicesTurnedOff: number; powerSavedW: number }> {
    const snapshot = this.deps.latestSnapshot();
    const deviceSettings = this.deps.settings.get().deviceSettings;
    let devicesTurnedOff = 0;
    let powerSavedW = 0;
    for (const device of this.deps.repo.list()) {
      if (device.autoMode || !isOnStatus(device.status)) continue;
      const decision = evaluateRules({
        // Asked as if in auto mode and without min on time: does a rule want it on right now? A lost
        // input says nothing either way, so it keeps the device (hold) rather than the fail-safe.
        device: { ...device, autoMode: true, sensorLossAction: 'hold', isOn: true, sinceMs: null },
        snapshot,
        deviceSettings,
        nowMs: this.deps.clock.now(),
      });
      if (decision.desired === 'on' || (decision.desired === 'hold' && configuredRules(device.automationRules).length > 0)) continue;
      await this.deps.control.switchOff(device.deviceId, 'user', actor, 'Optimize Power: no rule needs it now');
      devicesTurnedOff += 1;
      powerSavedW += device.powerConsumption;
    }
    return { devicesTurnedOff, powerSavedW };
  }
}
