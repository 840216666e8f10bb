import { SerialQueue } from '../../common/delay.ts';
import type { Clock } from '../../common/clock.ts';
import type { ControlAction, ControlLog, ControlSource, Device } from '../contract/device.ts';
import type { EventBus } from '../events/bus.ts';
import { notFound, unavailable } from '../domain/errors.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { actionFor, isOnStatus, statusFor, targetState, verbFor } from './actions.ts';
import type { DevicesRepo, StateChange } from './devices-repo.ts';
import type { OutputMap } from './outputs.ts';

export interface ControlRequest {
  deviceId: string;
  action: ControlAction;
  source: ControlSource;
  /** Username for 'user', rule name for 'rule', interlock name for 'safety', 'gateway' for 'system'. */
  actor: string;
  reason?: string;
  /** A roof window (SERVO): open this far (1-100 %) rather than fully; ignored for relays and when closing. */
  openPct?: number;
}

export interface ControlResult {
  device: Device;
  controlLog: ControlLog;
  message: string;
}

/** The locks the safety layer checks before anything is switched on (it refuses with 409 and the lock). */
export interface TurnOnGuard {
  checkTurnOn(device: Device, source: ControlSource, allDevices: readonly Device[]): void;
  /** A switch was written: the run ledger learns it before the answer's locks are computed. */
  recordSwitch(device: Device, source: ControlSource): void;
}

export interface ControlDeps {
  repo: DevicesRepo;
  outputs: OutputMap;
  settings: SettingsService;
  bus: EventBus;
  safety: TurnOnGuard;
  clock: Clock;
}

/**
 * The one path for every state change of a device, whoever asks (user over REST or websocket, rule,
 * safety, system). Order: refuse what safety or maintenance forbids, drive the output and wait for the
 * hardware, then persist status + control-log row in one transaction, then publish `deviceChanged`.
 * Requests run one at a time, so two callers never interleave between the check and the switch
 * (e.g. a heater and the cooling being switched on at once).
 */
export class ControlService {
  readonly #queue = new SerialQueue();

  constructor(private readonly deps: ControlDeps) {}

  control(request: ControlRequest): Promise<ControlResult> {
    return this.#queue.run(() => this.#apply(request));
  }

  /** Resolves when every request asked so far has been applied (shutdown). */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  /** Switches a device off (or closes it), whatever its type; for safety, quick actions and deletion. */
  switchOff(deviceId: string, source: ControlSource, actor: string, reason: string): Promise<ControlResult> {
    const device = this.deps.repo.find(deviceId);
    if (!device) return Promise.reject(notFound(`Device '${deviceId}' not found`));
    return this.control({ deviceId, action: actionFor(device.deviceType, false), source, actor, reason });
  }

  async #apply(request: ControlRequest): Promise<ControlResult> {
    const { repo, bus } = this.deps;
    const device = repo.find(request.deviceId);
    if (!device) throw notFound(`Device '${request.deviceId}' not found`);
    const wasOn = isOnStatus(device.status);
    const on = targetState(device.deviceType, request.action, wasOn);

    // Every lock (maintenance mode, safety, run limits) refuses a switch-on here, whoever asks.
    if (on) this.deps.safety.checkTurnOn(device, request.source, repo.listPlain());

    const openPct = on && device.deviceType === 'SERVO' ? (request.openPct ?? 100) : undefined;
    const unbound = await this.#drive(device, on, openPct);

    const newStatus = statusFor(device.deviceType, on);
    const moved = openPct !== undefined && openPct !== device.openPct;
    const changed = newStatus !== device.status || moved;
    const verb = openPct !== undefined && openPct < 100 ? `opened to ${openPct} %` : verbFor(device.deviceType, on);
    const what = changed ? `${device.deviceName} ${verb}` : `${device.deviceName} is already ${newStatus}`;
    const message = unbound ? `${what} (not connected to hardware)` : what;
    const change: StateChange = {
      deviceId: device.deviceId,
      action: request.action,
      previousStatus: device.status,
      newStatus,
      source: request.source,
      actor: request.actor,
      reason: request.reason ?? message,
      atMs: this.deps.clock.now(),
      ...(openPct !== undefined ? { openPct } : {}),
    };
    let recorded: { device: Device; controlLog: ControlLog };
    try {
      recorded = repo.recordStateChange(change);
    } catch (err) {
      throw this.#unrecorded(device, change, err);
    }
    const { device: written, controlLog } = recorded;
    this.deps.safety.recordSwitch(written, request.source);
    // Read again: its locks (minimum off time, run budget, switch rate) depend on the switch just made.
    const updated = repo.find(device.deviceId) ?? written;
    bus.emit('deviceChanged', { greenhouseId: repo.greenhouseId, device: updated, action: request.action, controlLog });
    return { device: updated, controlLog, message };
  }

  /**
   * The output moved but its switch could not be written (a full SD card, a file system gone read-only:
   * docs/storage.md, "When the storage refuses a write"). The switch stands: control goes on without its
   * record (a heater keeps the frost out, a pump its watering), and every reader (the dashboard, rules,
   * locks, run limits, cut-off) is told the output's state from memory until the device's next switch is
   * written. Answers the 503 to throw, saying so.
   */
  #unrecorded(device: Device, change: StateChange, err: unknown): Error {
    const { repo, bus } = this.deps;
    const why = err instanceof Error ? err.message : String(err);
    if (change.newStatus !== device.status || change.openPct !== undefined) {
      repo.holdUnrecorded(change, why);
      const held = repo.find(device.deviceId)!;
      this.deps.safety.recordSwitch(held, change.source);
      bus.emit('deviceChanged', { greenhouseId: repo.greenhouseId, device: held, action: change.action, controlLog: null });
    }
    return unavailable(`${device.deviceName} is ${change.newStatus.toLowerCase()}, but the switch could not be recorded: ${why}`);
  }

  /**
   * Drives the bound output; answers true when the device is not connected to hardware. An output
   * that the hardware could not provide may still be switched off (nothing to drive), never on.
   */
  async #drive(device: Device, on: boolean, openPct?: number): Promise<boolean> {
    if (!device.output) return true;
    const output = this.deps.outputs.get(device.output.outputId);
    if (!output) {
      if (!on) return false;
      throw unavailable(`Output '${device.output.outputId}' of ${device.deviceName} is not available on this hardware`);
    }
    try {
      // A servo that can take a position opens part-way; fully open and closed are plain set().
      if (openPct !== undefined && openPct < 100 && output.setOpenPct) await output.setOpenPct(openPct);
      else await output.set(on);
    } catch (err) {
      throw unavailable(`Output '${output.outputId}' of ${device.deviceName} did not respond: ${(err as Error).message}`);
    }
    return false;
  }
}
