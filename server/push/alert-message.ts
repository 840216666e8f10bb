import type { UnrecordedAlert } from '../alerts/alert-service.ts';
import { SEVERITY_RANK } from '../alerts/evaluator.ts';
import type { Alert, Severity } from '../contract/alert.ts';
import type { PushMessage } from '../contract/push.ts';
import type { PushUrgency } from './web-push-sender.ts';

/** Whether an alert of `severity` is pushed to a subscription that asked for `minSeverity` and above. */
export function meetsSeverity(severity: Severity, minSeverity: Severity): boolean {
  return SEVERITY_RANK[severity] >= SEVERITY_RANK[minSeverity];
}

/**
 * How the push service should treat it (RFC 8030 5.3): a phone in battery saving still wakes for
 * `high`; a CRITICAL or HIGH alert is what a grower must see at 2 am.
 */
export function urgencyOf(severity: Severity): PushUrgency {
  return severity === 'CRITICAL' || severity === 'HIGH' ? 'high' : severity === 'MEDIUM' ? 'normal' : 'low';
}

/** How long the push service keeps it for a phone that is off: an old LOW alert is noise. */
export function ttlSecondsOf(severity: Severity): number {
  return severity === 'CRITICAL' || severity === 'HIGH' ? 24 * 3600 : 4 * 3600;
}

const pushTitle = (alert: { severity: Severity; alertType: string }) => `${alert.severity} alert: ${alert.alertType.replaceAll('_', ' ').toLowerCase()}`;

/** The notification a raised alert becomes (web/public/sw.js shows it; a tap opens the alerts screen). */
export function alertPushMessage(alert: Alert): PushMessage {
  return {
    title: pushTitle(alert),
    // Push payloads are limited to about 4 KB once encrypted: a message is short, but cut it anyway.
    body: alert.message.slice(0, 500),
    severity: alert.severity,
    alertId: alert._id,
    url: '/dashboard/alerts',
    tag: `alert-${alert._id}`,
  };
}

/** The notification of an alert the storage refused (docs/storage.md): it has no id, nor a place on the alerts screen. */
export function unrecordedAlertPushMessage(alert: UnrecordedAlert): PushMessage {
  return {
    title: pushTitle(alert),
    body: `${alert.message.slice(0, 400)} (not recorded: the gateway's storage refuses writes)`,
    severity: alert.severity,
    alertId: null,
    url: '/dashboard',
    tag: `unrecorded-${alert.alertType}${alert.deviceId ? `-${alert.deviceId}` : ''}`,
  };
}
