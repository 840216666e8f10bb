import type { GatewayEvents } from '../events/bus.ts';
import type { ActiveAlertView, Evaluation } from './evaluator.ts';

const MIB = 1024 * 1024;
/** Under this much free space STORAGE_LOW is raised (HIGH): days of readings at most, and no full backup. */
export const STORAGE_LOW_BYTES = 256 * MIB;
/** Under this much it becomes CRITICAL: an hour of a log storm, a vacuum or a backup from failing writes. */
export const STORAGE_CRITICAL_BYTES = 64 * MIB;
/** The alert resolves only above this, so a disk hovering at the threshold does not raise it again and again. */
export const STORAGE_CLEAR_BYTES = 512 * MIB;

const CAUSE_KEY = 'storage:low';

const megabytes = (bytes: number) => `${Math.floor(bytes / MIB)} MB`;
const size = (bytes: number) => (bytes >= 1024 * MIB ? `${(bytes / (1024 * MIB)).toFixed(1)} GB` : megabytes(bytes));

/**
 * STORAGE_LOW: the disk the database is on is nearly full. On a full disk nothing can be recorded:
 * switches stand unrecorded, readings wait in memory, alerts are only logged (docs/storage.md, "When the
 * storage refuses a write"), so the warning comes while it can still be stored and sent. HIGH under
 * 256 MB, CRITICAL (mailed, pushed, sent again until acknowledged) under 64 MB; resolved above 512 MB.
 */
export function evaluateStorage(event: GatewayEvents['storageChecked'], active: ReadonlyMap<string, ActiveAlertView>): Evaluation {
  const result: Evaluation = { raise: [], escalate: [], resolve: [], clearAcknowledged: [] };
  const current = active.get(CAUSE_KEY);
  const { freeBytes, totalBytes, dir } = event;
  if (freeBytes >= STORAGE_CLEAR_BYTES) {
    if (current) result.resolve.push({ id: current.id, causeKey: CAUSE_KEY, actionTaken: `Auto-resolved: ${megabytes(freeBytes)} free on the data disk` });
    return result;
  }
  const severity = freeBytes < STORAGE_CRITICAL_BYTES ? 'CRITICAL' : freeBytes < STORAGE_LOW_BYTES ? 'HIGH' : null;
  if (severity === null) return result;
  const draft = {
    causeKey: CAUSE_KEY,
    alertType: 'STORAGE_LOW',
    severity,
    message:
      `Storage almost full: ${megabytes(freeBytes)} free of ${size(totalBytes)} on the data disk (${dir}). ` +
      'When it is full, switches, readings and alerts can no longer be recorded. Free some space or use a larger card.',
    deviceId: null,
    value: Math.floor(freeBytes / MIB),
    threshold: Math.floor((severity === 'CRITICAL' ? STORAGE_CRITICAL_BYTES : STORAGE_LOW_BYTES) / MIB),
  } as const;
  if (!current) result.raise.push(draft);
  else if (severity === 'CRITICAL' && current.severity !== 'CRITICAL') result.escalate.push({ ...draft, id: current.id });
  return result;
}
