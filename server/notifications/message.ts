import type { UnrecordedAlert } from '../alerts/alert-service.ts';
import type { Alert, Severity } from '../contract/alert.ts';
import type { DeliveryReason } from '../contract/notification.ts';

/**
 * What one delivery says, fixed when it is queued so a retry sends exactly what was meant (and a
 * webhook receiver can drop a repeat by `deliveryId`).
 */
export interface NotificationMessage {
  event: DeliveryReason;
  greenhouseId: string;
  severity: Severity;
  title: string;
  body: string;
  /** Where a tap should lead: the alert in the dashboard, ready to acknowledge; null when unknown. */
  link: string | null;
  alert: Alert | null;
}

/** The dashboard's address of an alert; the Alerts screen offers to acknowledge the one named. */
export function alertLink(publicUrl: string, alertId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/dashboard/alerts?acknowledge=${encodeURIComponent(alertId)}`;
}

/** "CRITICAL: TEMPERATURE LOW": what a phone shows first. */
const alertTitle = (alert: { severity: Severity; alertType: string }) => `${alert.severity}: ${alert.alertType.replaceAll('_', ' ')}`;

export function alertMessage(alert: Alert, event: 'alert' | 'escalation', publicUrl: string): NotificationMessage {
  const again = event === 'escalation' ? ' (not acknowledged yet)' : '';
  return {
    event,
    greenhouseId: alert.greenhouseId,
    severity: alert.severity,
    title: `${alertTitle(alert)}${again}`,
    body: `${alert.message}\nGreenhouse ${alert.greenhouseId}, raised ${alert.createdAt}.`,
    link: alertLink(publicUrl, alert._id),
    alert,
  };
}

export function testMessage(greenhouseId: string, channelId: string, publicUrl: string): NotificationMessage {
  return {
    event: 'test',
    greenhouseId,
    severity: 'LOW',
    title: 'Test notification',
    body: `Channel ${channelId} of greenhouse ${greenhouseId} works: alerts will arrive here.`,
    link: publicUrl,
    alert: null,
  };
}

/** Sent by the OnFailure unit when systemd gave up restarting the gateway (systemd/README.md). */
export function gatewayFailureMessage(greenhouseId: string, detail: string, publicUrl: string): NotificationMessage {
  return {
    event: 'gateway-failure',
    greenhouseId,
    severity: 'CRITICAL',
    title: 'CRITICAL: greenhouse gateway stopped',
    body: `The gateway of greenhouse ${greenhouseId} failed and systemd stopped restarting it (${detail}). Sensors are not read, automation is not running and outputs are off. Check the Pi.`,
    link: publicUrl,
    alert: null,
  };
}

/**
 * Sent past the outbox when the database refuses writes (docs/storage.md): the outbox is in that
 * database, so this is the one message that cannot wait in it.
 */
export function storageRefusedMessage(greenhouseId: string, error: string, publicUrl: string): NotificationMessage {
  return {
    event: 'gateway-failure',
    greenhouseId,
    severity: 'CRITICAL',
    title: 'CRITICAL: greenhouse gateway cannot record',
    body: `The database of greenhouse ${greenhouseId} refuses writes (${error}): the SD card is full or failing. Devices still switch and their limits still act, but readings, switches and alerts are not stored; new alerts are sent once, without retries, and cannot be acknowledged. Free space on the card, or replace it.`,
    link: publicUrl,
    alert: null,
  };
}

/**
 * An alert raised while the database refuses writes, sent past the outbox (./unrecorded-alerts.ts): it
 * has no id, so the link leads to the dashboard rather than to the alert.
 */
export function unrecordedAlertMessage(greenhouseId: string, alert: UnrecordedAlert, publicUrl: string): NotificationMessage {
  return {
    event: 'alert',
    greenhouseId,
    severity: alert.severity,
    title: alertTitle(alert),
    body: `${alert.message}\nGreenhouse ${greenhouseId}, raised ${new Date(alert.raisedAtMs).toISOString()}. Not recorded: the gateway's storage refuses writes, so this alert is not on the dashboard.`,
    link: publicUrl,
    alert: null,
  };
}
