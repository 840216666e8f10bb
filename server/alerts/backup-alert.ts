import type { GatewayEvents } from '../events/bus.ts';
import type { ActiveAlertView, Evaluation } from './evaluator.ts';

const CAUSE_KEY = 'backup:skipped';

/**
 * BACKUP_SKIPPED: the configured backup disk was missing, not writable or not mounted, so no backup
 * was written (never onto the SD card instead). One active alert however many days it lasts; resolved
 * by the next backup that is written.
 */
export function evaluateBackup(event: GatewayEvents['backupOutcome'], active: ReadonlyMap<string, ActiveAlertView>): Evaluation {
  const result: Evaluation = { raise: [], escalate: [], resolve: [], clearAcknowledged: [] };
  const current = active.get(CAUSE_KEY);
  if (event.written) {
    if (current) result.resolve.push({ id: current.id, causeKey: CAUSE_KEY, actionTaken: `Auto-resolved: a backup was written to ${event.dir}` });
  } else if (!current) {
    result.raise.push({
      causeKey: CAUSE_KEY,
      alertType: 'BACKUP_SKIPPED',
      severity: 'MEDIUM',
      message: `Backup skipped: ${event.reason}. Nothing was written to the SD card instead.`,
      deviceId: null,
      value: null,
      threshold: null,
    });
  }
  return result;
}
