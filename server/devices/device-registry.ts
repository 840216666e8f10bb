import type { Logger } from 'pino';
import type { Clock } from '../../common/clock.ts';
import { deviceNameKey } from '../../common/device-names.ts';
import type { AddableDeviceType, AutomationRules, Device, DeviceType, SensorLossAction } from '../contract/device.ts';
import type { EventBus } from '../events/bus.ts';
import { conflict, invalid, notFound } from '../domain/errors.ts';
import { isOnStatus, safeStatusFor } from './actions.ts';
import type { ControlService } from './control-service.ts';
import type { DevicePatch, DevicesRepo } from './devices-repo.ts';
import { mergeRules } from './rules/off-at.ts';
import { checkAutomationRules } from './rules/check-rules.ts';
import { ruleAgainstEffect } from './rules/rule-effect.ts';
import { followMisfit, stage2Problem, strandedStage2 } from '../climate/follow.ts';

/**
 * The duty share to store: required with 'duty' (sent now or kept from before), refused with any other
 * action (it would mean nothing there), and cleared when the action moves away from 'duty'.
 */
function dutyPctOf(action: SensorLossAction, sent: number | null | undefined, stored: number | null): number | null {
  if (action === 'duty') {
    const pct = sent === undefined ? stored : sent;
    if (pct === null) throw invalid("sensorLossDutyPct is required with sensorLossAction 'duty' (0-100 % of each 10-minute cycle)", 'sensorLossDutyPct');
    return pct;
  }
  if (sent !== undefined && sent !== null) {
    throw invalid(`sensorLossDutyPct applies only with sensorLossAction 'duty' (this device's is '${action}')`, 'sensorLossDutyPct');
  }
  return null;
}

export interface AddDeviceInput {
  deviceId: string;
  deviceName: string;
  deviceType: AddableDeviceType;
  location: string;
  powerConsumption: number;
  outputId?: string | null;
}

export interface UpdateDeviceInput {
  deviceName?: string;
  location?: string;
  powerConsumption?: number;
  outputId?: string | null;
  flowLitresPerMinute?: number | null;
}

export interface AutomationChanges {
  automationRules?: Partial<AutomationRules>;
  autoMode?: boolean;
  sensorLossAction?: SensorLossAction;
  sensorLossDutyPct?: number | null;
}

export interface DeviceRegistryDeps {
  repo: DevicesRepo;
  control: ControlService;
  bus: EventBus;
  clock: Clock;
  /** Refuses a schedule the gateway cannot follow (sunrise/sunset without a configured site). */
  checkSchedule?: (schedule: NonNullable<AutomationRules['schedule']>) => void;
  /** Config limits.maxDevices: adding beyond it is refused (configured outputs' devices are not capped). */
  maxDevices?: number;
  /** Says what the start-up sync changed in stored settings (a follow the device cannot do, cleared). */
  logger?: Pick<Logger, 'warn'>;
}

/** Adding, changing and removing devices, their automation settings, and the start-up sync with config. */
export class DeviceRegistry {
  constructor(private readonly deps: DeviceRegistryDeps) {}

  /**
   * At start: every configured output with a `device` has its device row (created if missing; a user's
   * name, rules and auto mode are kept), and every row says OFF/CLOSED, because the outputs were just
   * driven to their safe state. A row that said otherwise gets a 'system' control-log entry.
   */
  syncAtStart(): void {
    for (const output of this.deps.repo.configuredOutputs()) {
      const wanted = output.device;
      if (!wanted) continue;
      const existing = this.deps.repo.find(wanted.deviceId);
      const holder = this.deps.repo.findByOutput(output.outputId);
      if (holder && holder.deviceId !== wanted.deviceId) this.deps.repo.update(holder.deviceId, { outputId: null });
      if (!existing) {
        this.deps.repo.insert({
          deviceId: wanted.deviceId,
          deviceName: this.#freeNameFor(wanted.deviceName, wanted.deviceId),
          deviceType: wanted.deviceType,
          location: 'Main Greenhouse',
          powerConsumption: wanted.powerW,
          outputId: output.outputId,
          status: safeStatusFor(wanted.deviceType),
        });
      } else if (existing.output?.outputId !== output.outputId) {
        this.deps.repo.update(wanted.deviceId, { outputId: output.outputId });
      }
    }
    // A binding made before outputs carried a wired type (or a config whose wiring changed) may join a
    // device to an output of another type: it is undone, so a pump's relay never runs as a fan.
    for (const device of this.deps.repo.list()) {
      const output = device.output ? this.deps.repo.outputConfig(device.output.outputId) : undefined;
      if (output && output.type !== device.deviceType) this.deps.repo.update(device.deviceId, { outputId: null });
    }
    this.#clearMisfits();
    for (const device of this.deps.repo.list()) {
      const safe = safeStatusFor(device.deviceType);
      if (device.status === safe) continue;
      const change = {
        deviceId: device.deviceId,
        action: 'safe_state',
        previousStatus: device.status,
        newStatus: safe,
        source: 'system',
        actor: 'gateway',
        reason: 'Gateway started: every output starts in its safe state',
        atMs: this.deps.clock.now(),
      } as const;
      try {
        this.deps.repo.recordStateChange(change);
      } catch (err) {
        // A full or read-only disk: the output is safe all the same (the hardware was made safe before any
        // feature started), and every reader is told so (docs/storage.md, "When the storage refuses a write").
        this.deps.repo.holdUnrecorded(change, (err as Error).message);
        this.deps.logger?.warn({ err, deviceId: device.deviceId }, 'safe state at start could not be recorded');
      }
    }
  }

  /**
   * A configured output's device is added at start whatever the database holds (the wiring must drive
   * its output): when a device added from the dashboard already has its name, the new one is named
   * "<name> (<deviceId>)" and a warning says so, rather than two devices answering to one name.
   */
  #freeNameFor(name: string, deviceId: string): string {
    const { repo } = this.deps;
    const idHolder = repo.idClash(deviceId);
    if (idHolder) this.deps.logger?.warn({ deviceId, other: idHolder.deviceId }, `configured device ${deviceId} differs only in case from the device ${idHolder.deviceId}`);
    const holder = repo.nameClash(name);
    if (!holder) return name;
    let free = `${name} (${deviceId})`;
    for (let n = 2; repo.nameClash(free); n++) free = `${name} (${deviceId} ${n})`;
    this.deps.logger?.warn({ deviceId, other: holder.deviceId }, `configured device ${deviceId} is named '${free}': ${holder.deviceId} is already named '${holder.deviceName}'`);
    return free;
  }

  /**
   * A follow the device cannot physically do, a heating cycle on anything but a heater, or a threshold
   * rule that drives the device against its effect (rules/rule-effect.ts), stored by a release that did
   * not check them (docs/climate.md, docs/decisions.md): cleared at start, with a warning naming the
   * device, so a heater that followed 'vent' or had a temperatureHigh rule never heats a hot house. A
   * device's type never changes afterwards (PUT /api/devices/:deviceId refuses deviceType), so nothing
   * else can make one.
   */
  #clearMisfits(): void {
    for (const device of this.deps.repo.listPlain()) {
      let rules = device.automationRules;
      const cleared: string[] = [];
      for (let misfit = followMisfit(device.deviceType, rules); misfit; misfit = followMisfit(device.deviceType, rules)) {
        cleared.push(`${misfit.field} ${JSON.stringify(misfit.field === 'automationRules.follow' ? rules.follow : rules.heatingCycleMinutes)}`);
        // Not following any more, it is no stage either (a stage 2 without a follow is refused).
        rules = misfit.field === 'automationRules.follow' ? { ...rules, follow: null, stage: 1 } : { ...rules, heatingCycleMinutes: null };
      }
      const against = ruleAgainstEffect(device.deviceType, rules);
      if (against) {
        cleared.push(`${against.field} ${JSON.stringify(rules[against.kind])}`);
        rules = { ...rules, [against.kind]: null };
      }
      if (cleared.length === 0) continue;
      this.deps.repo.update(device.deviceId, { automationRules: rules });
      this.deps.logger?.warn({ deviceId: device.deviceId, cleared }, `${device.deviceName}: cleared ${cleared.join(', ')}, which a ${device.deviceType} cannot do`);
    }
  }

  add(input: AddDeviceInput): Device {
    const { repo } = this.deps;
    // The checks and the insert in one write transaction: of two requests for one name, one is added.
    const device = repo.exclusive(() => {
      this.#checkUnique(input.deviceId, input.deviceName, null);
      const max = this.deps.maxDevices;
      if (max !== undefined && repo.count() >= max) {
        throw conflict(`This gateway already has ${max} devices, its limit (config limits.maxDevices): remove one first`);
      }
      const outputId = input.outputId ?? null;
      if (outputId !== null) this.#checkBinding(input.deviceType, outputId, null);
      return repo.insert({ ...input, outputId, status: safeStatusFor(input.deviceType) });
    });
    this.deps.bus.emit('deviceAdded', { greenhouseId: repo.greenhouseId, device });
    return device;
  }

  update(deviceId: string, input: UpdateDeviceInput): Device {
    return this.#changed(this.deps.repo.exclusive(() => this.#update(deviceId, input)));
  }

  #update(deviceId: string, input: UpdateDeviceInput): Device {
    const device = this.#get(deviceId);
    // Renaming to what reads as its own name ("fan one" -> "Fan one") clashes with nothing.
    if (input.deviceName !== undefined && deviceNameKey(input.deviceName) !== deviceNameKey(device.deviceName)) {
      this.#checkUnique(null, input.deviceName, deviceId);
    }
    const patch: DevicePatch = { ...input };
    if (input.outputId !== undefined && input.outputId !== (device.output?.outputId ?? null)) {
      if (isOnStatus(device.status)) {
        throw conflict(`Switch ${device.deviceName} off before changing its output: the old output would stay on`);
      }
      if (input.outputId !== null) this.#checkBinding(device.deviceType, input.outputId, deviceId);
    }
    if (input.flowLitresPerMinute !== undefined && input.flowLitresPerMinute !== null && device.deviceType !== 'WATER_PUMP') {
      throw invalid(`flowLitresPerMinute applies only to a WATER_PUMP (this device is a ${device.deviceType})`, 'flowLitresPerMinute');
    }
    return this.deps.repo.update(deviceId, patch);
  }

  /**
   * Ids are unique regardless of case and names as a grower reads them (common/device-names.ts): 409
   * naming the field and the device that has it. `selfId`: the device being renamed.
   */
  #checkUnique(deviceId: string | null, deviceName: string, selfId: string | null): void {
    const { repo } = this.deps;
    const idHolder = deviceId === null ? null : repo.idClash(deviceId);
    if (idHolder) {
      const same = idHolder.deviceId === deviceId ? '' : ` (as '${idHolder.deviceId}': ids are compared regardless of case)`;
      throw conflict(`deviceId '${deviceId}' is already in use${same}`, 'deviceId');
    }
    const nameHolder = repo.nameClash(deviceName, selfId ?? undefined);
    if (nameHolder) {
      throw conflict(`deviceName '${deviceName.trim()}' is already the name of ${nameHolder.deviceId} ('${nameHolder.deviceName}'): names are compared ignoring case and spaces`, 'deviceName');
    }
  }

  setAutomation(deviceId: string, changes: AutomationChanges): Device {
    const device = this.#get(deviceId);
    const automationRules = mergeRules(device.automationRules, changes.automationRules);
    // A schedule is checked when it is sent: one stored before the site was cleared must not lock the
    // device's automation (auto mode off included); it keeps the device off meanwhile (docs/decisions.md).
    if (changes.automationRules?.schedule) this.deps.checkSchedule?.(changes.automationRules.schedule);
    checkAutomationRules(automationRules, changes.automationRules, device.deviceType);
    const all = this.deps.repo.listPlain();
    const stageProblem = stage2Problem({ deviceId, rules: automationRules }, all);
    if (stageProblem) throw invalid(stageProblem, 'automationRules.stage');
    const stranded = strandedStage2({ deviceId, rules: device.automationRules }, automationRules, all);
    if (stranded) throw invalid(stranded, 'automationRules.follow');
    const sensorLossAction = changes.sensorLossAction ?? device.sensorLossAction;
    return this.#changed(
      this.deps.repo.update(deviceId, {
        automationRules,
        autoMode: changes.autoMode ?? device.autoMode,
        sensorLossAction,
        sensorLossDutyPct: dutyPctOf(sensorLossAction, changes.sensorLossDutyPct, device.sensorLossDutyPct),
      }),
    );
  }

  /** Switches the device off first (its output must not stay energised), then removes it. */
  async remove(deviceId: string, actor: string): Promise<void> {
    const device = this.#get(deviceId);
    if (isOnStatus(device.status)) await this.deps.control.switchOff(deviceId, 'user', actor, `${device.deviceName} switched off before removal`);
    this.deps.repo.remove(deviceId);
    this.deps.bus.emit('deviceRemoved', { greenhouseId: this.deps.repo.greenhouseId, deviceId });
  }

  /** Outputs of the wiring config that no device is bound to: what a new device may use. */
  freeOutputs(): Array<{ outputId: string; kind: 'relay' | 'servo'; type: DeviceType; pin: number }> {
    return this.deps.repo
      .configuredOutputs()
      .filter((o) => !this.deps.repo.findByOutput(o.outputId))
      .map((o) => ({ outputId: o.outputId, kind: o.kind, type: o.type, pin: o.pin }));
  }

  #checkBinding(deviceType: DeviceType, outputId: string, selfId: string | null): void {
    const output = this.deps.repo.outputConfig(outputId);
    if (!output) throw invalid(`outputId '${outputId}' is not a configured output`, 'outputId');
    const holder = this.deps.repo.findByOutput(outputId);
    if (holder && holder.deviceId !== selfId) throw conflict(`outputId '${outputId}' is already used by ${holder.deviceName}`);
    // docs/decisions.md, Safety beyond the rules: an output drives only the kind of device it is wired to.
    if (output.type !== deviceType) {
      throw invalid(`outputId '${outputId}' is wired to a ${output.type} and cannot drive a ${deviceType}`, 'outputId');
    }
  }

  #get(deviceId: string): Device {
    const device = this.deps.repo.find(deviceId);
    if (!device) throw notFound(`Device '${deviceId}' not found`);
    return device;
  }

  #changed(device: Device): Device {
    this.deps.bus.emit('deviceChanged', { greenhouseId: this.deps.repo.greenhouseId, device, action: null, controlLog: null });
    return device;
  }
}
