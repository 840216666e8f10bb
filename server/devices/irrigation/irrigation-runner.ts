import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../../common/clock.ts';
import type { Device } from '../../contract/device.ts';
import { IRRIGATION_NO_EFFECT } from '../../contract/irrigation.ts';
import type { SensorField, SensorSnapshot } from '../../contract/reading.ts';
import { isRefusal } from '../../domain/errors.ts';
import type { EventBus, SafetyKind } from '../../events/bus.ts';
import type { SettingsService } from '../../settings/settings-service.ts';
import { isOnStatus } from '../actions.ts';
import type { ControlService } from '../control-service.ts';
import type { DevicesRepo } from '../devices-repo.ts';
import { lossOf } from '../rules/engine.ts';
import { describeWindow, windowAt, type Site } from '../rules/schedule.ts';
import type { CycleStore } from './cycle-store.ts';
import { IDLE, stepProgram, type CycleState } from './program.ts';
import { localDayStartMs, waterByDay } from './water-days.ts';

export interface IrrigationRunnerDeps {
  bus: EventBus;
  repo: DevicesRepo;
  control: ControlService;
  settings: SettingsService;
  cycles: CycleStore;
  clock: Clock;
  logger: Logger;
  site: () => Site | null;
  clockSynchronised: () => boolean;
  /** Asks the automation runner for an evaluation now (a pulse or soak ended between ticks). */
  wake: () => void;
}

const OWNER = 'devices-irrigation';
/** The control log's actor for every switch of a program. */
export const IRRIGATION_ACTOR = 'irrigation';

/**
 * Runs each auto-mode pump's irrigation program (program.ts) through the one control path, as the
 * automation runner's turn for that pump: the safety layer's locks (dry run, run budget, min off,
 * maintenance) still refuse a pulse, and a refused pulse is asked again at the next tick. The phase is
 * kept in `irrigation_cycles`, today's run time comes from the control log: a restart resumes a soak,
 * keeps a pause and a spent budget.
 */
export class IrrigationRunner {
  readonly #timers = new Map<string, TimerHandle>();
  /** The program's latest word per device, for the card while it waits without switching. */
  readonly #live = new Map<string, { reason: string; sinceMs: number }>();
  readonly #fallbackActive = new Set<string>();

  constructor(private readonly deps: IrrigationRunnerDeps) {}

  start(): void {
    const { bus } = this.deps;
    // A person resolved the no-effect alert (after checking tank, line and probe): the program resumes.
    bus.on('alertResolved', OWNER, ({ alert }) => {
      if (alert.alertType !== IRRIGATION_NO_EFFECT || alert.deviceId === null) return;
      const state = this.deps.cycles.load(alert.deviceId);
      if (state.phase !== 'paused') return;
      this.deps.cycles.save(alert.deviceId, { ...state, phase: 'idle' });
      this.deps.wake();
    });
    bus.on('deviceRemoved', OWNER, ({ deviceId }) => this.#forget(deviceId));
  }

  stop(): void {
    this.deps.bus.removeAll(OWNER);
    for (const handle of this.#timers.values()) this.deps.clock.clearTimeout(handle);
    this.#timers.clear();
  }

  /** The program's live reason for a pump (its card while it soaks or waits), or null. */
  liveStateOf(deviceId: string): { reason: string; sinceMs: number } | null {
    return this.#live.get(deviceId) ?? null;
  }

  /**
   * The device has no program any more (cleared, auto mode off): its cycle is forgotten, not its water
   * (a pause stays until its alert is resolved). A pulse it was giving ends now: nothing else would
   * stop the pump short of the safety run budget.
   */
  async release(device: Device): Promise<void> {
    if (!this.#live.has(device.deviceId) && !this.#timers.has(device.deviceId)) return;
    this.#forget(device.deviceId);
    const state = this.deps.cycles.load(device.deviceId);
    if (state.phase === 'paused') return;
    this.deps.cycles.save(device.deviceId, { ...IDLE, lastPulseAtMs: state.lastPulseAtMs });
    if (state.phase === 'pulse' && isOnStatus(device.status)) {
      await this.#switch(device, false, 'Irrigation program ended during a pulse: pump off');
    }
  }

  /** Today's run seconds of a pump, from the control log (every source: the bed got that water). */
  usedTodaySeconds(deviceId: string, nowMs: number): number {
    const dayStartMs = localDayStartMs(nowMs);
    const switches = this.deps.repo.stateChangesSince(dayStartMs - 24 * 3_600_000, deviceId);
    return waterByDay(switches, { nowMs, days: 1, flowLitresPerMinute: null })[0]?.runSeconds ?? 0;
  }

  async evaluate(device: Device, snapshot: SensorSnapshot | null, faultedFields: ReadonlySet<SensorField>): Promise<void> {
    const program = device.automationRules.irrigation;
    if (!program) return;
    const { clock, settings } = this.deps;
    const nowMs = clock.now();
    const isOn = isOnStatus(device.status);
    const before = this.deps.cycles.load(device.deviceId);
    const sense = { snapshot, faultedFields, nowMs };
    const soilLost = lossOf('soilMoisture', sense);
    const step = stepProgram({
      program,
      // A pump found off mid-pulse (safety or a person switched it off) is treated as a finished pulse.
      state: before.phase === 'pulse' && !isOn ? { ...before, untilMs: Math.min(before.untilMs ?? nowMs, nowMs) } : before,
      nowMs,
      soil: soilLost === null ? { pct: snapshot!.values.soilMoisture! } : { lost: soilLost },
      tankBlocked: this.#tankBlocked(sense, settings.get().deviceSettings.tankLowLevelCm),
      outsideWindow: this.#outsideWindow(program.window ?? null, nowMs),
      usedTodaySeconds: this.usedTodaySeconds(device.deviceId, nowMs),
    });

    if (step.noEffect) this.#emit('IRRIGATION_NO_EFFECT', device.deviceId, true, `${device.deviceName}: ${step.noEffect}`);
    if (step.fallbackActive !== undefined && step.fallbackActive !== this.#fallbackActive.has(device.deviceId)) {
      if (step.fallbackActive) this.#fallbackActive.add(device.deviceId);
      else this.#fallbackActive.delete(device.deviceId);
      this.#emit(
        'IRRIGATION_FALLBACK',
        device.deviceId,
        step.fallbackActive,
        step.fallbackActive
          ? `${device.deviceName} lost its soil probe and waters on its fallback timer (one pulse every ${program.fallbackEveryHours} h)`
          : `${device.deviceName}: soil probe back, moisture watering resumes`,
      );
    }

    const wantOn = step.desired === 'on';
    if (wantOn !== isOn) {
      const switched = await this.#switch(device, wantOn, step.reason);
      // A refused pulse did not happen: keep the old phase and ask again at the next tick.
      if (!switched && wantOn) return;
    }
    if (!sameState(before, step.state)) this.deps.cycles.save(device.deviceId, step.state);
    const live = this.#live.get(device.deviceId);
    if (!live || live.reason !== step.reason) this.#live.set(device.deviceId, { reason: step.reason, sinceMs: nowMs });
    this.#wakeAt(device.deviceId, step.wakeAtMs, nowMs);
  }

  #tankBlocked(sense: Parameters<typeof lossOf>[1], lowCm: number): string | null {
    const lost = lossOf('waterLevel', sense);
    if (lost !== null) return `tank level unknown (${lost})`;
    const level = sense.snapshot!.values.waterLevel!;
    return level <= lowCm ? `tank low (${Math.round(level * 10) / 10} cm, minimum ${lowCm} cm)` : null;
  }

  #outsideWindow(window: NonNullable<Device['automationRules']['irrigation']>['window'] | null, nowMs: number): string | null {
    if (!window) return null;
    if (!this.deps.clockSynchronised()) return 'the clock is not synchronised, so the watering window is unknown';
    const state = windowAt(window, nowMs, this.deps.site());
    return state.kind === 'inside' ? null : `outside the watering window ${describeWindow(window, state)}`;
  }

  async #switch(device: Device, on: boolean, reason: string): Promise<boolean> {
    try {
      await this.deps.control.control({ deviceId: device.deviceId, action: on ? 'turn_on' : 'turn_off', source: 'rule', actor: IRRIGATION_ACTOR, reason });
      return true;
    } catch (err) {
      if (isRefusal(err)) this.deps.logger.info({ deviceId: device.deviceId, reason: err.message }, 'irrigation pulse refused');
      else this.deps.logger.error({ err, deviceId: device.deviceId }, 'irrigation could not switch a pump');
      return false;
    }
  }

  #wakeAt(deviceId: string, atMs: number | null, nowMs: number): void {
    const old = this.#timers.get(deviceId);
    if (old) this.deps.clock.clearTimeout(old);
    this.#timers.delete(deviceId);
    if (atMs === null) return;
    this.#timers.set(
      deviceId,
      this.deps.clock.setTimeout(() => {
        this.#timers.delete(deviceId);
        this.deps.wake();
      }, Math.max(0, atMs - nowMs)),
    );
  }

  #forget(deviceId: string): void {
    const timer = this.#timers.get(deviceId);
    if (timer) this.deps.clock.clearTimeout(timer);
    this.#timers.delete(deviceId);
    this.#live.delete(deviceId);
    if (this.#fallbackActive.delete(deviceId)) this.#emit('IRRIGATION_FALLBACK', deviceId, false, `${deviceId}: irrigation fallback ended`);
  }

  #emit(kind: SafetyKind, deviceId: string, active: boolean, message: string): void {
    const at = new Date(this.deps.clock.now()).toISOString();
    this.deps.bus.emit('safetyEvent', { greenhouseId: this.deps.repo.greenhouseId, kind, deviceId, active, message, at });
  }
}

const sameState = (a: CycleState, b: CycleState) =>
  a.phase === b.phase && a.pulses === b.pulses && a.startPct === b.startPct && a.untilMs === b.untilMs && a.lastPulseAtMs === b.lastPulseAtMs && a.fallback === b.fallback;
