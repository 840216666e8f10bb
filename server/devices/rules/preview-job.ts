import type { AutomationPreview, AutomationRules } from '../../contract/device.ts';
import type { SensorType } from '../../contract/reading.ts';
import type { DeviceSettings } from '../../contract/settings.ts';
import { isOnStatus } from '../actions.ts';
import { Replay, type ReplayInput } from './preview.ts';
import type { RecordedHistory, RecordedReading } from './recorded-history.ts';
import type { Site } from './schedule.ts';
import type { ClimateProgram } from '../../contract/climate.ts';

/** Everything a preview needs besides the database, checked on the main thread; plain data (it crosses to the worker). */
export interface PreviewJob {
  deviceId: string;
  device: ReplayInput['device'];
  rules: AutomationRules;
  deviceSettings: DeviceSettings;
  site: Site | null;
  fromMs: number;
  toMs: number;
  tickGapMs: number;
  sensors: SensorType[];
  /** The climate program a following device replays (its targets at each tick); null when not following. */
  climate?: ClimateProgram | null;
}

const HOUR_MS = 3_600_000;

/** The replay of one job over recorded history, an hour of readings at a time (memory stays one page). */
export function runPreviewJob(job: PreviewJob, history: RecordedHistory): AutomationPreview {
  const recorded = history.stateAt(job.deviceId, job.fromMs);
  const replay = new Replay({
    device: job.device,
    rules: job.rules,
    deviceSettings: job.deviceSettings,
    site: job.site,
    fromMs: job.fromMs,
    toMs: job.toMs,
    initial: recorded ? { on: isOnStatus(recorded.status), sinceMs: recorded.sinceMs } : { on: false, sinceMs: null },
    faults: history.faults(job.fromMs, job.toMs),
    tickGapMs: job.tickGapMs,
    climate: job.climate ?? null,
  });
  const add = (reading: Readonly<RecordedReading>) => replay.add(reading);
  for (let pageMs = job.fromMs; pageMs <= job.toMs; pageMs += HOUR_MS) {
    history.forEachReadingBetween(job.sensors, pageMs, Math.min(pageMs + HOUR_MS, job.toMs + 1), add);
  }
  return replay.finish();
}
