import type { Alert } from '../contract/alert.ts';

export const CSV_COLUMNS = ['createdAt', 'alertType', 'severity', 'message', 'deviceId', 'status', 'resolvedAt', 'actionTaken'] as const;

/**
 * One CSV cell (RFC 4180). A cell a spreadsheet would read as a formula (starting with = + - @, or a
 * tab or carriage return) is prefixed with a single quote (OWASP "CSV injection"): alert messages and
 * device ids can come from API callers.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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
