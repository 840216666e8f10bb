import { SerialQueue } from '../../../common/delay.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../../common/clock.ts';
import type { Device } from '../../contract/device.ts';
import { SENSOR_FIELDS, type SensorField, type SensorSnapshot, type SensorType } from '../../contract/reading.ts';
import type { EventBus } from '../../events/bus.ts';
import { isRefusal } from '../../domain/errors.ts';
import { FailureLog } from '../../domain/failure-log.ts';
import type { SettingsService } from '../../settings/settings-service.ts';
import { actionFor, isOnStatus } from '../actions.ts';
import type { ControlService } from '../control-service.ts';
import type { DevicesRepo } from '../devices-repo.ts';
import { evaluateRules, type RuleDecision, type RuleInput } from './engine.ts';
import type { Site } from './schedule.ts';
import type { IrrigationRunner } from '../irrigation/irrigation-runner.ts';
import type { WindowSafePosition } from '../../contract/climate.ts';
import type { ClimateTargets } from '../../climate/targets.ts';

export interface AutomationDeps {
  bus: EventBus;
  repo: DevicesRepo;
  settings: SettingsService;
  control: ControlService;
  clock: Clock;
  logger: Logger;
  /** systemSettings.site, for sunrise/sunset schedules (read at each evaluation: changes apply at once). */
  site: () => Site | null;
  /** False while the wall clock is not synchronised (schedules keep their devices off). Default: true. */
  clockSynchronised?: () => boolean;
  /** Runs the pumps that have an irrigation program (they follow it instead of the threshold rules). */
  irrigation?: IrrigationRunner;
  /** The climate program's targets now and the window's safe position (docs/climate.md); absent: no programs. */
  climate?: { targetsNow(): ClimateTargets | null; windowSafePosition(): WindowSafePosition };
}

/** The bus owner of every subscription this runner makes (one runner per bus). */
const OWNER = 'devices-automation';
/** The FailureLog key of the climate targets (the others are device ids). */
const CLIMATE_KEY = '(climate targets)';

/** What one evaluation reads once for all devices. */
type Tick = Pick<RuleInput, 'snapshot' | 'deviceSettings' | 'faultedFields' | 'climate' | 'climateUnavailable' | 'windowSafePosition'> & { faultedFields: Set<SensorField> };

/**
 * Applies the rule engine's decisions to the devices in auto mode after every sampling tick (and at
 * once when a sensor is declared faulted), through the ControlService: source 'rule', or 'safety' for
 * the sensor-loss fail-safe, which also raises a SENSOR_LOSS safety event (an alert says why) until
 * fresh readings return. A refusal (safety, maintenance) is expected and only logged: the next tick
 * asks again.
 */
export class AutomationRunner {
  readonly #queue = new SerialQueue();
  #pending = false;
  #latest: SensorSnapshot | null = null;
  #sampledThisTick = false;
  readonly #faulted = new Set<SensorType>();
  /** Devices whose sensor-loss fail-safe is engaged: the engine's reason, since when, and whether it cycles (duty). */
  readonly #lossEngaged = new Map<string, { reason: string; sinceMs: number; duty: boolean }>();
  readonly #failures: FailureLog;

  constructor(private readonly deps: AutomationDeps) {
    this.#failures = new FailureLog(deps.logger);
  }

  start(): void {
    const { bus } = this.deps;
    // Every subscription under OWNER: stop() removes them all at once (bus.removeAll).
    bus.on('sampleTaken', OWNER, ({ snapshot }) => {
      this.#latest = snapshot;
      this.#sampledThisTick = true;
      this.#schedule();
    });
    // A tick where no sensor answered stores nothing, so no sampleTaken: inputs still age and go stale.
    bus.on('samplerTicked', OWNER, () => {
      if (!this.#sampledThisTick) this.#schedule();
      this.#sampledThisTick = false;
    });
    bus.on('sensorHealthChanged', OWNER, ({ sensorType, healthy }) => {
      if (healthy) this.#faulted.delete(sensorType);
      else this.#faulted.add(sensorType);
      // Declared faulted: act now, not at the next tick.
      if (!healthy) this.#schedule();
    });
    // Automation settings changed (a device change without a switch): apply them now, not at the next tick.
    bus.on('deviceChanged', OWNER, ({ controlLog }) => {
      // Before the first sample there is nothing to judge by: the first tick will do.
      if (controlLog === null && this.#latest !== null) this.#schedule();
    });
    // Synchronised or stepped: a schedule's window may have moved, act now rather than at the next tick.
    bus.on('clockChanged', OWNER, () => this.#schedule());
    // A new climate program: devices following it act on its targets now.
    bus.on('climateProgramChanged', OWNER, () => this.#schedule());
    bus.on('deviceRemoved', OWNER, ({ deviceId }) => {
      this.#lossEngaged.delete(deviceId);
    });
  }

  async stop(): Promise<void> {
    this.deps.bus.removeAll(OWNER);
    this.#pending = false;
    await this.#queue.idle();
  }

  /** Asks for an evaluation of the newest readings now (a timer of a program ended between ticks). */
  wake(): void {
    this.#schedule();
  }

  /** Completes when the evaluations queued so far are done (tests, shutdown). */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  /** The fields whose sensor is declared faulted now. */
  faultedFields(): Set<SensorField> {
    return new Set([...this.#faulted].flatMap((type) => SENSOR_FIELDS[type]));
  }

  // A tick that arrives while the previous one is being applied is merged into one evaluation of the
  // newest readings: only they matter.
  #schedule(): void {
    if (this.#pending) return;
    this.#pending = true;
    void this.#queue.run(async () => {
      if (!this.#pending) return;
      this.#pending = false;
      try {
        await this.evaluate(this.#latest);
      } catch (err) {
        this.deps.logger.error({ err }, 'automation tick failed');
      }
    });
  }

  /**
   * One evaluation of every device in auto mode. What fails for one part (the climate targets, one
   * device) is logged once and never stops the others' rules and fail-safes.
   */
  async evaluate(snapshot: SensorSnapshot | null): Promise<void> {
    const tick: Tick = {
      snapshot,
      deviceSettings: this.deps.settings.get().deviceSettings,
      faultedFields: this.faultedFields(),
      ...this.#climateNow(),
    };
    for (const device of this.deps.repo.listPlain()) {
      try {
        await this.#evaluateDevice(device, tick);
        this.#failures.worked(device.deviceId, 'automation evaluates the device again', { deviceId: device.deviceId });
      } catch (err) {
        this.#failures.failed(device.deviceId, err, 'automation could not evaluate a device', { deviceId: device.deviceId });
      }
    }
  }

  /** The program's targets, or why there are none: devices that follow it then take their fail-safe. */
  #climateNow(): Pick<Tick, 'climate' | 'climateUnavailable' | 'windowSafePosition'> {
    const program = this.deps.climate;
    if (!program) return { climate: null, climateUnavailable: null, windowSafePosition: 'closed' };
    let windowSafePosition: WindowSafePosition = 'closed';
    try {
      windowSafePosition = program.windowSafePosition();
      const climate = program.targetsNow();
      this.#failures.worked(CLIMATE_KEY, 'climate targets available again: devices follow the program');
      return { climate, climateUnavailable: null, windowSafePosition };
    } catch (err) {
      this.#failures.failed(CLIMATE_KEY, err, 'climate targets unavailable: devices following the program take their safe state, the others follow their rules');
      return { climate: null, climateUnavailable: 'climate targets unavailable', windowSafePosition };
    }
  }

  async #evaluateDevice(device: Device, tick: Tick): Promise<void> {
    const { repo, clock } = this.deps;
    if (!device.autoMode) {
      this.#releaseLoss(device, 'auto mode switched off');
      await this.deps.irrigation?.release(device);
      return;
    }
    if (device.deviceType === 'WATER_PUMP' && device.automationRules.irrigation && this.deps.irrigation) {
      await this.deps.irrigation.evaluate(device, tick.snapshot, tick.faultedFields);
      return;
    }
    await this.deps.irrigation?.release(device);
    const isOn = isOnStatus(device.status);
    const decision = evaluateRules({
      ...tick,
      device: { ...device, isOn, sinceMs: repo.lastSwitchedAtMs(device.deviceId) },
      nowMs: clock.now(),
      site: this.deps.site(),
      clockSynchronised: this.deps.clockSynchronised?.() ?? true,
    });
    if (decision.source === 'safety') this.#engageLoss(device, decision);
    else this.#releaseLoss(device, 'fresh readings returned');
    if (decision.desired === 'hold') return;
    const moves = decision.openPct !== undefined && decision.openPct !== (device.openPct ?? (isOn ? 100 : 0));
    if ((decision.desired === 'on') === isOn && !moves) return;
    await this.#apply(device, decision);
  }

  async #apply(device: Device, decision: RuleDecision): Promise<void> {
    try {
      await this.deps.control.control({
        deviceId: device.deviceId,
        action: actionFor(device.deviceType, decision.desired === 'on'),
        source: decision.source,
        actor: decision.source === 'safety' ? 'SENSOR_LOSS' : (decision.ruleName ?? 'automation'),
        reason: decision.reason,
        ...(decision.openPct !== undefined && device.deviceType === 'SERVO' ? { openPct: decision.openPct } : {}),
      });
    } catch (err) {
      if (isRefusal(err)) {
        this.deps.logger.info({ deviceId: device.deviceId, reason: err.message }, 'automation refused');
      } else {
        this.deps.logger.error({ err, deviceId: device.deviceId }, 'automation could not switch a device');
      }
    }
  }

  /** The fail-safe's reason for a device that it holds off (not a duty cycle, which runs it), or null. */
  sensorLossOf(deviceId: string): string | null {
    const loss = this.#lossEngaged.get(deviceId);
    return loss && !loss.duty ? loss.reason : null;
  }

  /** The live sensor-loss state of a device (its card's reason), or null when not engaged. */
  lossStateOf(deviceId: string): { reason: string; sinceMs: number } | null {
    return this.#lossEngaged.get(deviceId) ?? null;
  }

  #engageLoss(device: Device, decision: RuleDecision): void {
    const duty = device.sensorLossAction === 'duty';
    const known = this.#lossEngaged.get(device.deviceId);
    if (known) {
      // The duty cycle's reason is the same each phase; keep the engage time.
      known.reason = decision.reason;
      return;
    }
    this.#lossEngaged.set(device.deviceId, { reason: decision.reason, sinceMs: this.deps.clock.now(), duty });
    const message = duty
      ? `${device.deviceName} lost its input and runs its duty cycle: ${decision.reason}`
      : `${device.deviceName} is in its safe state: ${decision.reason}`;
    this.#emit(device.deviceId, true, message);
  }

  #releaseLoss(device: Device, why: string): void {
    if (!this.#lossEngaged.delete(device.deviceId)) return;
    this.#emit(device.deviceId, false, `${device.deviceName}: ${why}, automation resumes`);
  }

  #emit(deviceId: string, active: boolean, message: string): void {
    const at = new Date(this.deps.clock.now()).toISOString();
    this.deps.bus.emit('safetyEvent', { greenhouseId: this.deps.repo.greenhouseId, kind: 'SENSOR_LOSS', deviceId, active, message, at });
  }
}
