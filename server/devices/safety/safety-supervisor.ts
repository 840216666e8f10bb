import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../../drivers/clock.ts';
import type { ControlSource, Device } from '../../contract/device.ts';
import { STALE_AFTER_MS, type SensorSnapshot } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import type { EventBus, SafetyKind } from '../../events/bus.ts';
import { refusedBySafety } from '../../domain/errors.ts';
import { isOnStatus } from '../actions.ts';
import type { TurnOnGuard } from '../control-service.ts';
import { HeaterCutoff } from './heater-cutoff.ts';

/** The dry-run lockout releases only this far above the low level, so a sloshing tank does not flap it. */
export const TANK_RELEASE_BAND_CM = 2;

export interface SafetyDeps {
  bus: EventBus;
  clock: Clock;
  greenhouseId: string;
  deviceSettings: () => DeviceSettings;
  listDevices: () => Device[];
  /** The device typed by its wiring (./wiring.ts); `listDevices` answers wired devices already. */
  asWired: (device: Device) => Device;
  /** Switches a device off through the ControlService with source 'safety'. */
  switchOff: (deviceId: string, actor: SafetyKind, reason: string) => Promise<unknown>;
  logger: Logger;
}

const OPPOSITE: Partial<Record<Device['deviceType'], Device['deviceType']>> = { HEATER: 'COOLING_SYSTEM', COOLING_SYSTEM: 'HEATER' };

/**
 * Safety wins over rules and people:
 * - a pump runs at most deviceSettings.pumpMaxRunSeconds in one go; then safety switches it off, and
 *   rules may not restart it for another pumpMaxRunSeconds (a pump that cannot wet the soil in that
 *   time points at a broken pipe, not at dry soil). A user may restart it, which releases the interlock;
 * - dry-run lockout: a fresh water level below tankLowLevelCm refuses pump starts and switches running
 *   pumps off; it releases at tankLowLevelCm + TANK_RELEASE_BAND_CM. A stale level never acts (no
 *   automatic action on stale data) but keeps an engaged lockout engaged;
 * - heater and cooling never run together: turning one on while the other runs is refused (409), for
 *   users and for rules alike: with rules, the newer request loses and the running device keeps going;
 * - heater cut-off above deviceSettings.heaterCutoffC (heater-cutoff.ts).
 * Every engage and release is published as `safetyEvent`.
 */
export class SafetySupervisor implements TurnOnGuard {
  readonly #runTimers = new Map<string, TimerHandle>();
  readonly #cooldowns = new Map<string, TimerHandle>();
  readonly #interlocked = new Set<string>();
  #dryRunLocked = false;
  #lastLevel: { levelCm: number; readAtMs: number } | null = null;
  #offs: Array<() => void> = [];
  readonly #heaterCutoff: HeaterCutoff;

  constructor(private readonly deps: SafetyDeps) {
    this.#heaterCutoff = new HeaterCutoff({
      clock: deps.clock,
      deviceSettings: deps.deviceSettings,
      listDevices: deps.listDevices,
      isHeater: (device) => device.deviceType === 'HEATER',
      switchOff: (deviceId, kind, reason) => this.#safeOff(deviceId, kind, reason),
      emit: (kind, deviceId, active, message) => this.#emit(kind, deviceId, active, message),
    });
  }

  start(): void {
    this.#offs = [
      this.deps.bus.on('sampleTaken', 'devices-safety', ({ snapshot }) => this.onSnapshot(snapshot)),
      this.deps.bus.on('deviceChanged', 'devices-safety', ({ device }) => this.#onDeviceChanged(this.deps.asWired(device))),
      this.deps.bus.on('deviceRemoved', 'devices-safety', ({ deviceId }) => this.#forget(deviceId)),
      // A lowered cut-off acts at once, not at the next tick.
      this.deps.bus.on('settingsChanged', 'devices-safety', ({ settings, previous }) => {
        if (settings.deviceSettings.heaterCutoffC !== previous.deviceSettings.heaterCutoffC) this.#heaterCutoff.check();
      }),
    ];
  }

  stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
    for (const timer of [...this.#runTimers.values(), ...this.#cooldowns.values()]) this.deps.clock.clearTimeout(timer);
    this.#runTimers.clear();
    this.#cooldowns.clear();
  }

  get dryRunLocked(): boolean {
    return this.#dryRunLocked;
  }

  get heaterCutoffEngaged(): boolean {
    return this.#heaterCutoff.engaged;
  }

  checkTurnOn(requested: Device, source: ControlSource, devices: readonly Device[]): void {
    const device = this.deps.asWired(requested);
    const allDevices = devices.map((d) => this.deps.asWired(d));
    this.#heaterCutoff.checkTurnOn(device);
    if (device.deviceType === 'WATER_PUMP') this.#checkPump(device, source);
    const opposite = OPPOSITE[device.deviceType];
    if (!opposite) return;
    const running = allDevices.find((d) => d.deviceType === opposite && isOnStatus(d.status));
    if (!running) return;
    const message = `Cannot turn on ${device.deviceName} while ${running.deviceName} is running: heater and cooling never run together`;
    if (!this.#interlocked.has(device.deviceId)) {
      this.#interlocked.add(device.deviceId);
      this.#emit('INTERLOCK', device.deviceId, true, message);
    }
    throw refusedBySafety(message);
  }

  #checkPump(device: Device, source: ControlSource): void {
    const { tankLowLevelCm } = this.deps.deviceSettings();
    const level = this.#freshLevelCm();
    if (this.#dryRunLocked || (level !== null && level < tankLowLevelCm)) {
      const shown = level === null ? 'unknown' : `${level.toFixed(1)} cm`;
      throw refusedBySafety(`Water tank level is too low (${shown}, minimum ${tankLowLevelCm} cm): the pump is locked out to protect it from running dry`);
    }
    if (this.#cooldowns.has(device.deviceId)) {
      if (source !== 'user') {
        throw refusedBySafety(`${device.deviceName} reached its maximum run time and rests before automation may restart it`);
      }
      this.#releaseCooldown(device.deviceId, `${device.deviceName} restarted by a user after its maximum run time`);
    }
  }

  /** Heater cut-off and dry-run lockout from each sampling tick. */
  onSnapshot(snapshot: SensorSnapshot): void {
    this.#heaterCutoff.onSnapshot(snapshot);
    const levelCm = snapshot.values.waterLevel;
    const readAt = snapshot.readAt.waterLevel;
    if (levelCm !== null && readAt !== null) this.#lastLevel = { levelCm, readAtMs: Date.parse(readAt) };
    const level = this.#freshLevelCm();
    if (level === null) return;
    const { tankLowLevelCm } = this.deps.deviceSettings();
    const pumps = this.deps.listDevices().filter((d) => d.deviceType === 'WATER_PUMP');
    if (!this.#dryRunLocked && level < tankLowLevelCm) {
      this.#dryRunLocked = true;
      const message = `Water tank level is too low (${level.toFixed(1)} cm, minimum ${tankLowLevelCm} cm): pumps are locked out to protect them from running dry`;
      for (const pump of pumps) this.#emit('DRY_RUN_LOCKOUT', pump.deviceId, true, message);
    } else if (this.#dryRunLocked && level >= tankLowLevelCm + TANK_RELEASE_BAND_CM) {
      this.#dryRunLocked = false;
      const message = `Water tank refilled (${level.toFixed(1)} cm): pumps may run again`;
      for (const pump of pumps) this.#emit('DRY_RUN_LOCKOUT', pump.deviceId, false, message);
    }
    if (!this.#dryRunLocked) return;
    for (const pump of pumps.filter((p) => isOnStatus(p.status))) {
      this.#safeOff(pump.deviceId, 'DRY_RUN_LOCKOUT', `Water tank level too low (${level.toFixed(1)} cm): pump switched off to protect it from running dry`);
    }
  }

  #freshLevelCm(): number | null {
    if (!this.#lastLevel || this.deps.clock.now() - this.#lastLevel.readAtMs > STALE_AFTER_MS) return null;
    return this.#lastLevel.levelCm;
  }

  #onDeviceChanged(device: Device): void {
    const on = isOnStatus(device.status);
    if (device.deviceType === 'WATER_PUMP') {
      if (on && !this.#runTimers.has(device.deviceId)) this.#startRunTimer(device);
      if (!on) this.#clearRunTimer(device.deviceId);
    }
    if (!on && OPPOSITE[device.deviceType]) this.#releaseInterlocks();
  }

  #startRunTimer(pump: Device): void {
    const maxSeconds = this.deps.deviceSettings().pumpMaxRunSeconds;
    const timer = this.deps.clock.setTimeout(() => {
      this.#runTimers.delete(pump.deviceId);
      const message = `${pump.deviceName} ran for its maximum of ${maxSeconds} s and was switched off`;
      this.#safeOff(pump.deviceId, 'PUMP_MAX_RUNTIME', message, () => {
        this.#emit('PUMP_MAX_RUNTIME', pump.deviceId, true, message);
        const rest = this.deps.clock.setTimeout(
          () => this.#releaseCooldown(pump.deviceId, `${pump.deviceName} rested ${maxSeconds} s: automation may run it again`),
          maxSeconds * 1000,
        );
        this.#cooldowns.set(pump.deviceId, rest);
      });
    }, maxSeconds * 1000);
    this.#runTimers.set(pump.deviceId, timer);
  }

  #clearRunTimer(deviceId: string): void {
    const timer = this.#runTimers.get(deviceId);
    if (timer) this.deps.clock.clearTimeout(timer);
    this.#runTimers.delete(deviceId);
  }

  #releaseCooldown(deviceId: string, message: string): void {
    const timer = this.#cooldowns.get(deviceId);
    if (!timer) return;
    this.deps.clock.clearTimeout(timer);
    this.#cooldowns.delete(deviceId);
    this.#emit('PUMP_MAX_RUNTIME', deviceId, false, message);
  }

  #releaseInterlocks(): void {
    const devices = this.deps.listDevices();
    for (const deviceId of [...this.#interlocked]) {
      const device = devices.find((d) => d.deviceId === deviceId);
      const opposite = device ? OPPOSITE[device.deviceType] : undefined;
      if (device && opposite && devices.some((d) => d.deviceType === opposite && isOnStatus(d.status))) continue;
      this.#interlocked.delete(deviceId);
      this.#emit('INTERLOCK', deviceId, false, `${device?.deviceName ?? deviceId} may run again: the opposite climate device is off`);
    }
  }

  #forget(deviceId: string): void {
    this.#clearRunTimer(deviceId);
    const rest = this.#cooldowns.get(deviceId);
    if (rest) this.deps.clock.clearTimeout(rest);
    this.#cooldowns.delete(deviceId);
    this.#interlocked.delete(deviceId);
  }

  #safeOff(deviceId: string, kind: SafetyKind, reason: string, then?: () => void): void {
    this.deps.switchOff(deviceId, kind, reason).then(
      () => then?.(),
      (err) => this.deps.logger.error({ err, deviceId, kind }, 'safety could not switch a device off'),
    );
  }

  #emit(kind: SafetyKind, deviceId: string, active: boolean, message: string): void {
    const at = new Date(this.deps.clock.now()).toISOString();
    this.deps.bus.emit('safetyEvent', { greenhouseId: this.deps.greenhouseId, kind, deviceId, active, message, at });
  }
}
