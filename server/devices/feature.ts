import type { Clock } from '../../drivers/clock.ts';
import type { SensorSnapshot } from '../contract/reading.ts';
import type { OutputConfig } from '../config/schema.ts';
import type { Db } from '../db/open.ts';
import type { EventBus } from '../events/bus.ts';
import type { Feature } from '../features.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { isOnStatus, safeStatusFor } from './actions.ts';
import { ControlService } from './control-service.ts';
import { DeviceRegistry } from './device-registry.ts';
import { DevicesRepo } from './devices-repo.ts';
import type { OutputMap } from './outputs.ts';
import { QuickActions } from './quick-actions.ts';
import { deviceRoutes } from './routes.ts';
import { AutomationRunner } from './rules/automation-runner.ts';
import { SafetySupervisor } from './safety/safety-supervisor.ts';
import { registerDeviceControlCommand } from './ws-command.ts';

export interface DevicesFeatureDeps {
  db: Db;
  bus: EventBus;
  hub: RealtimeHub;
  settings: SettingsService;
  clock: Clock;
  greenhouseId: string;
  outputConfigs: readonly OutputConfig[];
  /** The hardware's outputs (drivers `Hardware.outputs`); a configured output missing here is unavailable. */
  outputs: OutputMap;
  resolveGreenhouse: (id: string) => string | null;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface DevicesFeature extends Feature {
  control: ControlService;
  repo: DevicesRepo;
  registry: DeviceRegistry;
  safety: SafetySupervisor;
  automation: AutomationRunner;
}

/** Devices and automation: the registry, the one control path, safety interlocks and the rule runner. */
export function createDevicesFeature(deps: DevicesFeatureDeps): DevicesFeature {
  const now = () => deps.clock.now();
  const repo = new DevicesRepo(deps.db, deps.greenhouseId, deps.outputConfigs, (id) => deps.outputs.has(id), now);
  let latestSnapshot: SensorSnapshot | null = null;

  // The safety layer switches devices off through the ControlService, which asks it before switching on.
  let control: ControlService | null = null;
  const safety = new SafetySupervisor({
    bus: deps.bus,
    clock: deps.clock,
    greenhouseId: deps.greenhouseId,
    deviceSettings: () => deps.settings.get().deviceSettings,
    listDevices: () => repo.list(),
    switchOff: (deviceId, kind, reason) => control!.switchOff(deviceId, 'safety', kind, reason),
    logError: deps.log.error,
  });
  control = new ControlService({ repo, outputs: deps.outputs, settings: deps.settings, bus: deps.bus, safety, now });
  const registry = new DeviceRegistry(repo, control, deps.bus, now);
  const quickActions = new QuickActions(repo, registry, control, deps.settings, () => latestSnapshot, now);
  const automation = new AutomationRunner({ bus: deps.bus, repo, settings: deps.settings, control, now, log: deps.log });
  registerDeviceControlCommand(deps.hub, control, deps.resolveGreenhouse);

  let offSnapshot: (() => void) | null = null;
  return {
    name: 'devices',
    control,
    repo,
    registry,
    safety,
    automation,
    routes: [{ prefix: '/devices', plugin: deviceRoutes, options: { repo, registry, control, quickActions } }],
    start() {
      registry.syncAtStart();
      offSnapshot = deps.bus.on('sampleTaken', 'devices', ({ snapshot }) => {
        latestSnapshot = snapshot;
      });
      // Safety subscribes before the rule runner, so a lockout is applied before rules are evaluated.
      safety.start();
      automation.start();
    },
    async stop() {
      offSnapshot?.();
      await automation.stop();
      safety.stop();
      // The lead's shutdown drives every output to its safe state; the rows say so too.
      for (const device of repo.list()) {
        if (!isOnStatus(device.status)) continue;
        repo.recordStateChange({
          deviceId: device.deviceId,
          action: 'safe_state',
          previousStatus: device.status,
          newStatus: safeStatusFor(device.deviceType),
          source: 'system',
          actor: 'gateway',
          reason: 'Gateway stopping: every output goes to its safe state',
          atMs: now(),
        });
      }
    },
  };
}
