import type { Device } from '../contract/device.ts';
import type { SensorSnapshot } from '../contract/reading.ts';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import type { ClimateService } from '../climate/climate-service.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import { isOnStatus, safeStatusFor } from './actions.ts';
import { ControlService } from './control-service.ts';
import { DeviceRegistry } from './device-registry.ts';
import { DevicesRepo } from './devices-repo.ts';
import { QuickActions } from './quick-actions.ts';
import { deviceRoutes } from './routes.ts';
import { AutomationRunner } from './rules/automation-runner.ts';
import { PreviewService, type PreviewLimits } from './rules/preview-service.ts';
import { liveSite, scheduleChecker } from './rules/site.ts';
import { LockWatch } from './lock-watch.ts';
import { explainDevice } from './state-view.ts';
import { SafetySupervisor } from './safety/safety-supervisor.ts';
import { asWired } from './safety/wiring.ts';
import { registerDeviceControlCommand } from './ws-command.ts';
import { CycleStore } from './irrigation/cycle-store.ts';
import { IrrigationRunner } from './irrigation/irrigation-runner.ts';
import { waterOf, waterRoutes } from './irrigation/routes.ts';
import type { WaterDay } from '../contract/irrigation.ts';

export interface DevicesFeature extends Feature {
  control: ControlService;
  repo: DevicesRepo;
  registry: DeviceRegistry;
  safety: SafetySupervisor;
  automation: AutomationRunner;
  /** Rule previews on worker threads: counts for /api/metrics. */
  preview: PreviewService;
  /** The pumps' irrigation programs. */
  irrigation: IrrigationRunner;
  /** A pump's water since local midnight (MQTT and metrics), null for an unknown device. */
  waterToday: (deviceId: string) => WaterDay | null;
}

/** Devices and automation: the registry, the one control path, safety interlocks and the rule runner. */
export function createDevicesFeature(ctx: AppContext, uses: { hub: RealtimeHub; previewLimits?: PreviewLimits; climate?: ClimateService }): DevicesFeature {
  const { config, clock, bus, settings, hardware } = ctx;
  const logger = featureLogger(ctx, 'devices');
  const greenhouseId = config.greenhouseId;
  const repo = new DevicesRepo({
    db: ctx.database.db,
    greenhouseId,
    outputs: config.outputs,
    isAvailable: (outputId) => hardware.outputs.has(outputId),
    clock,
  });
  let latestSnapshot: SensorSnapshot | null = null;

  // Safety follows the wiring: each device is seen as the type of the output it drives.
  const wired = (device: Device) => asWired(device, (outputId) => repo.outputConfig(outputId)?.type);
  // The safety layer switches devices off through the ControlService, which asks it before switching on.
  let control: ControlService | null = null;
  // The rule runner knows which devices its sensor-loss fail-safe holds; safety's locks say so.
  let automation: AutomationRunner | null = null;
  let irrigation: IrrigationRunner | null = null;
  const safety = new SafetySupervisor({
    bus,
    clock,
    greenhouseId,
    settings: () => settings.get(),
    asWired: wired,
    listDevices: () => repo.listPlain().map(wired),
    switchOff: (deviceId, kind, reason) => control!.switchOff(deviceId, 'safety', kind, reason),
    stateChangesSince: (sinceMs) => repo.stateChangesSince(sinceMs),
    sensorLossOf: (deviceId) => automation?.sensorLossOf(deviceId) ?? null,
    logger,
  });
  repo.useExplainer((device, all) =>
    explainDevice(device, {
      locksFor: (d) => safety.locksFor(d, 'user', all),
      newestLog: (deviceId) => repo.newestLog(deviceId),
      liveSafetyState: (deviceId) => automation?.lossStateOf(deviceId) ?? null,
      liveProgramState: (deviceId) => irrigation?.liveStateOf(deviceId) ?? null,
    }),
  );
  control = new ControlService({ repo, outputs: hardware.outputs, settings, bus, safety, clock });
  const site = liveSite(() => settings.get().systemSettings);
  const checkSchedule = scheduleChecker(site);
  const registry = new DeviceRegistry({ repo, control, bus, clock, checkSchedule, maxDevices: config.limits.maxDevices, logger });
  const quickActions = new QuickActions({ repo, registry, control, settings, latestSnapshot: () => latestSnapshot, clock });
  const clockSynchronised = () => ctx.clockSync.synchronised();
  irrigation = new IrrigationRunner({
    bus,
    repo,
    control,
    settings,
    cycles: new CycleStore({ db: ctx.database.db, nowMs: () => clock.now() }),
    clock,
    logger,
    site,
    clockSynchronised,
    wake: () => automation?.wake(),
  });
  automation = new AutomationRunner({ bus, repo, settings, control, clock, logger, site, clockSynchronised, irrigation, climate: uses.climate });
  const preview = new PreviewService({ repo, settings, clock, site, checkSchedule, dbPath: ctx.database.path, greenhouseId, limits: uses.previewLimits, climateProgram: () => uses.climate?.program() ?? null });
  const lockWatch = new LockWatch({ bus, clock, greenhouseId, listExplained: () => repo.list() });
  registerDeviceControlCommand(uses.hub, control, ctx.resolveGreenhouse);

  return {
    name: 'devices',
    control,
    repo,
    registry,
    safety,
    automation,
    preview,
    irrigation,
    waterToday: (deviceId) => (repo.findPlain(deviceId) ? (waterOf(repo, deviceId, 1, clock.now())[0] ?? null) : null),
    async registerRoutes(api) {
      await api.register(deviceRoutes, { prefix: '/devices', repo, registry, control, quickActions, preview });
      await api.register(waterRoutes, { prefix: '/devices', repo, clock });
    },
    start() {
      registry.syncAtStart();
      bus.on('sampleTaken', 'devices', ({ snapshot }) => {
        latestSnapshot = snapshot;
      });
      // Safety subscribes before the rule runner, so a lockout is applied before rules are evaluated.
      safety.start();
      irrigation.start();
      automation.start();
      lockWatch.start();
    },
    async stop() {
      bus.removeAll('devices');
      await preview.stop();
      lockWatch.stop();
      await automation.stop();
      irrigation.stop();
      safety.stop();
      await control.idle();
      // The gateway drives every output to its safe state after the features stop; the rows say so too.
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
          atMs: clock.now(),
        });
      }
    },
  };
}
