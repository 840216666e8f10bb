import type { Logger } from 'pino';
import type { Clock } from '../../../common/clock.ts';
import type { ControlSource, Device, DeviceLock } from '../../contract/device.ts';
import { STALE_AFTER_MS, type SensorSnapshot } from '../../contract/reading.ts';
import type { Settings } from '../../contract/settings.ts';
import type { EventBus, SafetyKind } from '../../events/bus.ts';
import { refusedByLock } from '../../domain/errors.ts';
import { isOnStatus } from '../actions.ts';
import type { TurnOnGuard } from '../control-service.ts';
import { AirTemperatureWatch } from './air-temperature.ts';
import { HeaterCutoff } from './heater-cutoff.ts';
import { locksOf } from './locks.ts';
import type { LedgerEntry } from './run-ledger.ts';
import { RunLimits } from './run-limits.ts';

/** The bus owner of every subscription this supervisor makes (one supervisor per bus). */
const OWNER = 'devices-safety';

/** The dry-run lockout releases only this far above the low level, so a sloshing tank does not flap it. */
export const TANK_RELEASE_BAND_CM = 2;

export interface SafetyDeps {
  bus: EventBus;
  clock: Clock;
  greenhouseId: string;
  settings: () => Settings;
  listDevices: () => Device[];
  /** The device typed by its wiring (./wiring.ts); `listDevices` answers wired devices already. */
  asWired: (device: Device) => Device;
  /** Switches a device off through the ControlService with source 'safety'. */
  switchOff: (deviceId: string, actor: SafetyKind, reason: string) => Promise<unknown>;
  /** The control log's state changes since a time, oldest first (the run ledger's memory across restarts). */
  stateChangesSince: (sinceMs: number) => LedgerEntry[];
  /** The auto-mode sensor-loss fail-safe's reason for a device, or null (the rule runner knows). */
  sensorLossOf: (deviceId: string) => string | null;
  logger: Logger;
}

/**
 * Safety wins over rules and people (server/devices/README.md, "Safety"):
 * - locks (./locks.ts): what forbids switching a device on now, the same list on every device answer
 *   and in every refusal (409 with the lock), for every source;
 * - run budgets and run limits (./run-limits.ts);
 * - dry-run lockout: a fresh water level below tankLowLevelCm refuses pump starts and switches running
 *   pumps off; it releases at tankLowLevelCm + TANK_RELEASE_BAND_CM. A stale level never acts (no
 *   automatic action on stale data) but keeps an engaged lockout engaged;
 * - no blind heater: a heater that is on when the air temperature goes stale or faulted goes off,
 *   except an auto-mode heater whose sensor-loss action is 'duty' (frost protection);
 * - heater cut-off above deviceSettings.heaterCutoffC (heater-cutoff.ts).
 * Every engage and release is published as `safetyEvent`.
 */
export class SafetySupervisor implements TurnOnGuard {
  readonly #interlocked = new Set<string>();
  /** Devices safety is already switching off: a tick does not queue the same switch-off again. */
  readonly #switchingOff = new Set<string>();
  #dryRunLocked = false;
  #lastLevel: { levelCm: number; readAtMs: number } | null = null;
  readonly #heaterCutoff: HeaterCutoff;
  readonly #air = new AirTemperatureWatch();
  readonly #limits: RunLimits;

  constructor(private readonly deps: SafetyDeps) {
    const deviceSettings = () => deps.settings().deviceSettings;
    this.#heaterCutoff = new HeaterCutoff({
      clock: deps.clock,
      deviceSettings,
      listDevices: deps.listDevices,
      isHeater: (device) => device.deviceType === 'HEATER',
      switchOff: (deviceId, kind, reason) => this.#safeOff(deviceId, kind, reason),
      emit: (kind, deviceId, active, message) => this.#emit(kind, deviceId, active, message),
    });
    this.#limits = new RunLimits({
      clock: deps.clock,
      deviceSettings,
      switchOff: (deviceId, kind, reason, then) => this.#safeOff(deviceId, kind, reason, then),
      emit: (kind, deviceId, active, message) => this.#emit(kind, deviceId, active, message),
    });
  }

  start(): void {
    const { bus } = this.deps;
    // A day and an hour back covers the longest run window and the switch-rate hour.
    this.#limits.load(this.deps.stateChangesSince(this.deps.clock.now() - 25 * 3_600_000));
    // Every subscription under OWNER: stop() removes them all at once (bus.removeAll).
    bus.on('sampleTaken', OWNER, ({ snapshot }) => this.onSnapshot(snapshot));
    // A tick without a sample still ages the temperature: a heater must not outlive its reading.
    bus.on('samplerTicked', OWNER, () => this.#checkBlindHeaters());
    bus.on('sensorHealthChanged', OWNER, ({ sensorType, healthy }) => {
      if (this.#air.onSensorHealth(sensorType, healthy)) this.#checkBlindHeaters();
    });
    bus.on('deviceRemoved', OWNER, ({ deviceId }) => this.#forget(deviceId));
    bus.on('settingsChanged', OWNER, ({ settings, previous }) => {
      // A lowered cut-off acts at once, not at the next tick; so does a smaller run budget.
      if (settings.deviceSettings.heaterCutoffC !== previous.deviceSettings.heaterCutoffC) this.#heaterCutoff.check();
      const budget = (s: Settings) => `${s.deviceSettings.pumpMaxRunSeconds}/${s.deviceSettings.pumpRunWindowMinutes}`;
      if (budget(settings) !== budget(previous)) this.#limits.rearm(this.deps.listDevices());
    });
  }

  stop(): void {
    this.deps.bus.removeAll(OWNER);
    this.#limits.stop();
  }

  get dryRunLocked(): boolean {
    return this.#dryRunLocked;
  }

  get heaterCutoffEngaged(): boolean {
    return this.#heaterCutoff.engaged;
  }

  /** What forbids switching the device on now, for `source` (the card shows them for a person). */
  locksFor(requested: Device, source: ControlSource = 'user', devices?: readonly Device[]): DeviceLock[] {
    const device = this.deps.asWired(requested);
    const { deviceSettings, systemSettings } = this.deps.settings();
    const nowMs = this.deps.clock.now();
    const ledger = this.#limits.ledger;
    return locksOf({
      device,
      devices: (devices ?? this.deps.listDevices()).map((d) => this.deps.asWired(d)),
      source,
      nowMs,
      deviceSettings,
      maintenanceMode: systemSettings.maintenanceMode,
      dryRunLevelCm: this.#dryRunLocked || this.#freshLevelBelowLow() ? this.#freshLevelCm() : undefined,
      cutoffC: this.#heaterCutoff.engaged || this.#heaterCutoff.aboveNow() ? this.#air.lastC() : undefined,
      air: this.#air.at(nowMs),
      sensorLoss: this.deps.sensorLossOf(device.deviceId),
      runs: ledger.runs(device.deviceId),
      lastOffMs: ledger.lastOffMs(device.deviceId),
      switchOnsInHour: ledger.switchOnsInHour(device.deviceId, nowMs),
    });
  }

  /** Refuses (409 with the lock) a switch-on that a lock forbids. */
  checkTurnOn(requested: Device, source: ControlSource, devices: readonly Device[]): void {
    const lock = this.locksFor(requested, source, devices)[0];
    if (!lock) return;
    if (lock.kind === 'interlock' && !this.#interlocked.has(requested.deviceId)) {
      this.#interlocked.add(requested.deviceId);
      this.#emit('INTERLOCK', requested.deviceId, true, `Cannot turn on ${requested.deviceName}: ${lock.text}`);
    }
    const message = lock.kind === 'maintenance' ? lock.text : `Cannot turn on ${requested.deviceName}: ${lock.text}`;
    throw refusedByLock(message, lock);
  }

  /**
   * Why a lockout alert may not be resolved yet, or null when its cause is gone: a person may not
   * clear the record of a pump running dry while the tank is still empty.
   */
  lockoutCause(alertType: string, deviceId: string | null): string | null {
    const device = deviceId ? this.deps.listDevices().find((d) => d.deviceId === deviceId) : undefined;
    const kinds: Record<string, DeviceLock['kind']> = { DRY_RUN_LOCKOUT: 'dry_run', PUMP_MAX_RUNTIME: 'run_budget', HEATER_CUTOFF: 'cutoff' };
    const kind = kinds[alertType];
    if (!kind || !device) return null;
    // Judged as the device's own limit, not as anyone's right to switch it (maintenance mode is no cause).
    const lock = this.locksFor({ ...device, status: 'OFF' }, 'user').find((l) => l.kind === kind);
    return lock ? lock.text : null;
  }

  /** Heater cut-off, dry-run lockout and the fresh-reading rule from each sampling tick. */
  onSnapshot(snapshot: SensorSnapshot): void {
    this.#air.onSnapshot(snapshot);
    this.#heaterCutoff.onSnapshot(snapshot);
    this.#checkBlindHeaters();
    const levelCm = snapshot.values.waterLevel;
    const readAtMs = snapshot.readAtMs.waterLevel;
    if (levelCm !== null && readAtMs !== null) this.#lastLevel = { levelCm, readAtMs };
    const level = this.#freshLevelCm();
    if (level === null) return;
    const { tankLowLevelCm } = this.deps.settings().deviceSettings;
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

  /** The no-blind-heater rule: a heater that is on without a fresh air temperature goes off. */
  #checkBlindHeaters(): void {
    const air = this.#air.at(this.deps.clock.now());
    if (air.fresh) return;
    for (const heater of this.deps.listDevices()) {
      if (heater.deviceType !== 'HEATER' || !isOnStatus(heater.status)) continue;
      // Frost protection: the rule runner drives the duty cycle of an auto-mode heater set to 'duty'.
      if (heater.autoMode && heater.sensorLossAction === 'duty') continue;
      this.#safeOff(heater.deviceId, 'SENSOR_LOSS', `Air temperature unknown (${air.why}): heater switched off, a heater never runs blind`);
    }
  }

  #freshLevelCm(): number | null {
    if (!this.#lastLevel || this.deps.clock.now() - this.#lastLevel.readAtMs > STALE_AFTER_MS) return null;
    return this.#lastLevel.levelCm;
  }

  #freshLevelBelowLow(): boolean {
    const level = this.#freshLevelCm();
    return level !== null && level < this.deps.settings().deviceSettings.tankLowLevelCm;
  }

  /** Every switch the control path writes, whoever asked: the run ledger, run limits and interlocks follow it. */
  recordSwitch(switched: Device, source: ControlSource): void {
    const device = this.deps.asWired(switched);
    this.#limits.onDeviceChanged(device, source);
    if (!isOnStatus(device.status) && (device.deviceType === 'HEATER' || device.deviceType === 'COOLING_SYSTEM')) this.#releaseInterlocks();
  }

  #releaseInterlocks(): void {
    const devices = this.deps.listDevices();
    const opposite: Partial<Record<Device['deviceType'], Device['deviceType']>> = { HEATER: 'COOLING_SYSTEM', COOLING_SYSTEM: 'HEATER' };
    for (const deviceId of [...this.#interlocked]) {
      const device = devices.find((d) => d.deviceId === deviceId);
      const other = device ? opposite[device.deviceType] : undefined;
      if (device && other && devices.some((d) => d.deviceType === other && isOnStatus(d.status))) continue;
      this.#interlocked.delete(deviceId);
      this.#emit('INTERLOCK', deviceId, false, `${device?.deviceName ?? deviceId} may run again: the opposite climate device is off`);
    }
  }

  #forget(deviceId: string): void {
    this.#limits.forget(deviceId);
    this.#interlocked.delete(deviceId);
  }

  #safeOff(deviceId: string, kind: SafetyKind, reason: string, then?: () => void): void {
    if (this.#switchingOff.has(deviceId)) return;
    this.#switchingOff.add(deviceId);
    this.deps.switchOff(deviceId, kind, reason).then(
      () => {
        this.#switchingOff.delete(deviceId);
        then?.();
      },
      (err) => {
        this.#switchingOff.delete(deviceId);
        this.deps.logger.error({ err, deviceId, kind }, 'safety could not switch a device off');
      },
    );
  }

  #emit(kind: SafetyKind, deviceId: string, active: boolean, message: string): void {
    const at = new Date(this.deps.clock.now()).toISOString();
    this.deps.bus.emit('safetyEvent', { greenhouseId: this.deps.greenhouseId, kind, deviceId, active, message, at });
  }
}
