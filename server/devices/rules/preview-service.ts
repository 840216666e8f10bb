import type { Clock } from '../../../common/clock.ts';
import type { AutomationPreview, AutomationRules } from '../../contract/device.ts';
import { notFound } from '../../domain/errors.ts';
import type { SettingsService } from '../../settings/settings-service.ts';
import { isOnStatus } from '../actions.ts';
import type { DevicesRepo } from '../devices-repo.ts';
import { Replay, sensorsFor } from './preview.ts';
import type { RecordedHistory } from './recorded-history.ts';
import type { Site } from './schedule.ts';
import { checkOffAt, mergeRules } from './off-at.ts';

export interface PreviewServiceDeps {
  repo: DevicesRepo;
  history: RecordedHistory;
  settings: SettingsService;
  clock: Clock;
  /** systemSettings.site, read at each preview (changes apply at once). */
  site: () => Site | null;
  checkSchedule: (schedule: NonNullable<AutomationRules['schedule']>) => void;
}

const HOUR_MS = 3_600_000;
/** History replayed between two turns of the event loop: ~720 rows a sensor at 5 s, a few ms of work. */
const PAGE_MS = HOUR_MS;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** POST /api/devices/:deviceId/automation/preview: what these rules would have done over the last hours. */
export class PreviewService {
  constructor(private readonly deps: PreviewServiceDeps) {}

  /** Replays page by page, giving the event loop back between pages (sampling and control go on). */
  async preview(deviceId: string, changes: Partial<AutomationRules>, hours: number): Promise<AutomationPreview> {
    const { repo, history, settings, clock } = this.deps;
    const device = repo.find(deviceId);
    if (!device) throw notFound(`Device '${deviceId}' not found`);
    // Unset fields keep the device's own rules, as saving them would.
    const rules: AutomationRules = mergeRules(device.automationRules, changes);
    if (rules.schedule) this.deps.checkSchedule(rules.schedule);
    checkOffAt(rules);
    const { deviceSettings, systemSettings } = settings.get();
    const toMs = clock.now();
    const fromMs = toMs - hours * HOUR_MS;
    const recorded = history.stateAt(deviceId, fromMs);
    const replay = new Replay({
      device: { deviceType: device.deviceType, powerW: device.powerConsumption, sensorLossAction: device.sensorLossAction, sensorLossDutyPct: device.sensorLossDutyPct },
      rules,
      deviceSettings,
      site: this.deps.site(),
      fromMs,
      toMs,
      initial: recorded ? { on: isOnStatus(recorded.status), sinceMs: recorded.sinceMs } : { on: false, sinceMs: null },
      faults: history.faults(fromMs, toMs),
      tickGapMs: (systemSettings.updateInterval * 1000) / 2,
    });
    const types = sensorsFor(rules, deviceSettings.deadband, device.deviceType);
    for (let pageMs = fromMs; pageMs <= toMs; pageMs += PAGE_MS) {
      if (pageMs > fromMs) await nextTurn();
      replay.feed(history.readingsBetween(types, pageMs, Math.min(pageMs + PAGE_MS, toMs + 1)));
    }
    return replay.finish();
  }
}
