// The link in a notification (ntfy's click, the e-mail's "Open") leads to /dashboard/alerts?acknowledge=<id>:
// this card names the alert and acknowledges it with one tap, so the gateway stops sending it again.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useAcknowledge } from '../../api/notifications.ts';
import { useActiveAlerts } from '../../api/queries.ts';
import { useCanModify } from '../../auth/permissions.ts';
import { toast } from '../../components/toast/index.ts';
import { formatAlertType, formatTimestamp } from '../../format.ts';
import { SeverityBadge } from './SeverityBadge.tsx';

export function AcknowledgePrompt() {
  const [params, setParams] = useSearchParams();
  const id = params.get('acknowledge');
  const active = useActiveAlerts();
  const canModify = useCanModify();
  const acknowledge = useAcknowledge();
  const [busy, setBusy] = useState(false);
  if (!id) return null;
  const alert = active.data?.find((a) => a._id === id);
  const close = () => setParams((p) => {
    p.delete('acknowledge');
    return p;
  });

  async function ack() {
    setBusy(true);
    try {
      await acknowledge(id!);
      toast.success('Alert acknowledged', { key: 'acknowledge' });
      close();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to acknowledge alert'), { key: 'acknowledge' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card acknowledge-prompt" data-testid="acknowledge-prompt" aria-labelledby="acknowledge-heading">
      <h2 className="card-header" id="acknowledge-heading">Alert from a notification</h2>
      {active.isPending && <p className="muted">Loading the alert…</p>}
      {!active.isPending && !alert && <p>This alert is no longer active: it was resolved.</p>}
      {alert && (
        <>
          <p>
            <SeverityBadge severity={alert.severity} /> <strong>{formatAlertType(alert.alertType)}</strong>: {alert.message}
          </p>
          <p className="muted">Raised {formatTimestamp(alert.createdAt)}</p>
          {alert.acknowledgedAt ? (
            <p>Acknowledged by {alert.acknowledgedBy} at {formatTimestamp(alert.acknowledgedAt)}.</p>
          ) : !canModify ? (
            <p className="muted">An operator or admin can acknowledge it.</p>
          ) : null}
        </>
      )}
      <div className="row">
        {alert && !alert.acknowledgedAt && canModify && (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void ack()}>Acknowledge</button>
        )}
        <button type="button" className="btn btn-secondary" onClick={close}>Close</button>
      </div>
    </section>
  );
}
