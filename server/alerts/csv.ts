import type { Alert } from '../contract/alert.ts';
import { csvCell } from '../domain/csv-cell.ts';

export const CSV_COLUMNS = ['createdAt', 'alertType', 'severity', 'message', 'deviceId', 'status', 'resolvedAt', 'actionTaken'] as const;

export { csvCell };

/** The alert history as CSV, header first, CRLF line ends. */
export function alertsToCsv(alerts: readonly Alert[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const a of alerts) {
    const row = {
      createdAt: a.createdAt,
      alertType: a.alertType,
      severity: a.severity,
      message: a.message,
      deviceId: a.deviceId,
      status: a.isResolved ? 'resolved' : 'active',
      resolvedAt: a.resolvedAt,
      actionTaken: a.actionTaken,
    };
    lines.push(CSV_COLUMNS.map((c) => csvCell(row[c])).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
