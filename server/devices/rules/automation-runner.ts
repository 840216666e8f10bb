import { SerialQueue } from '../../../drivers/delay.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../../drivers/clock.ts';
import type { SensorSnapshot } from '../../contract/reading.ts';
import type { EventBus } from '../../events/bus.ts';
import { isRefusal } from '../../domain/errors.ts';
import type { SettingsService } from '../../settings/settings-service.ts';
import { actionFor, isOnStatus } from '../actions.ts';
import type { ControlService } from '../control-service.ts';
import type { DevicesRepo } from '../devices-repo.ts';
import { evaluateRules } from './engine.ts';

export interface AutomationDeps {
  bus: EventBus;
  repo: DevicesRepo;
  settings: SettingsService;
  control: ControlService;
  clock: Clock;
  logger: Logger;
}

/**
 * Applies the rule engine's decisions to the devices in auto mode after every sampling tick, through
 * the ControlService with source 'rule'. A refusal (safety, maintenance) is expected and only logged:
 * the next tick asks again.
 */
export class AutomationRunner {
  #off: (() => void) | null = null;
  readonly #queue = new SerialQueue();
  #pending: SensorSnapshot | null = null;

  constructor(private readonly deps: AutomationDeps) {}

  start(): void {
    this.#off = this.deps.bus.on('sampleTaken', 'devices-automation', ({ snapshot }) => this.#schedule(snapshot));
  }

  async stop(): Promise<void> {
    this.#off?.();
    this.#off = null;
    this.#pending = null;
    await this.#queue.idle();
  }

  /** Completes when the evaluations queued so far are done (tests, shutdown). */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  // A tick that arrives while the previous one is being applied replaces any tick still waiting:
  // only the newest readings matter.
  #schedule(snapshot: SensorSnapshot): void {
    const alreadyQueued = this.#pending !== null;
    this.#pending = snapshot;
    if (alreadyQueued) return;
    void this.#queue.run(async () => {
      const next = this.#pending;
      this.#pending = null;
      try {
        if (next) await this.evaluate(next);
      } catch (err) {
        this.deps.logger.error({ err }, 'automation tick failed');
      }
    });
  }

  async evaluate(snapshot: SensorSnapshot): Promise<void> {
    const { repo, settings, control, clock, logger } = this.deps;
    const deviceSettings = settings.get().deviceSettings;
    for (const device of repo.list().filter((d) => d.autoMode)) {
      const isOn = isOnStatus(device.status);
      const decision = evaluateRules({
        device: { ...device, isOn, sinceMs: repo.lastSwitchedAtMs(device.deviceId) },
        snapshot,
        deviceSettings,
        nowMs: clock.now(),
      });
      if (decision.desired === 'hold' || (decision.desired === 'on') === isOn) continue;
      try {
        await control.control({
          deviceId: device.deviceId,
          action: actionFor(device.deviceType, decision.desired === 'on'),
          source: 'rule',
          actor: decision.ruleName ?? 'automation',
          reason: decision.reason,
        });
      } catch (err) {
        if (isRefusal(err)) {
          logger.info({ deviceId: device.deviceId, reason: err.message }, 'automation refused');
        } else {
          logger.error({ err, deviceId: device.deviceId }, 'automation could not switch a device');
        }
      }
    }
  }
}
