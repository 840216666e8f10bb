// An active CRITICAL nobody has acknowledged stays on screen as a banner under the header, on every
// screen and on a phone too, until someone acknowledges it (or it resolves): a toast fades after 8 s,
// a frost alarm must not (docs/product.md, "Alerts that reach a grower").
import { useState } from 'react';
import { Link } from 'react-router';
import { AlertOctagon } from 'lucide-react';
import { errorMessage } from '../api/client.ts';
import { useAcknowledge } from '../api/notifications.ts';
import { useActiveAlerts } from '../api/queries.ts';
import { useCanModify } from '../auth/permissions.ts';
import { toast } from '../components/toast/index.ts';
import { formatAlertType } from '../format.ts';

export function CriticalBanner() {
  const alerts = useActiveAlerts().data ?? [];
  const canModify = useCanModify();
  const acknowledge = useAcknowledge();
  const [busy, setBusy] = useState(false);
  const open = alerts.filter((a) => a.severity === 'CRITICAL' && !a.isResolved && !a.acknowledgedAt);
  if (open.length === 0) return null;
  const newest = open[0]!;

  async function ack() {
    setBusy(true);
    try {
      await acknowledge(newest._id);
      toast.success('Alert acknowledged', { key: 'acknowledge' });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to acknowledge alert'), { key: 'acknowledge' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="critical-banner" role="alert" data-testid="critical-banner">
      <AlertOctagon size={22} aria-hidden className="critical-banner-icon" />
      <div className="critical-banner-text">
        <strong>CRITICAL: {formatAlertType(newest.alertType)}</strong>
        <span>{newest.message}</span>
        {open.length > 1 && <span className="critical-banner-more">and {open.length - 1} more not acknowledged</span>}
      </div>
      <div className="critical-banner-actions">
        {canModify ? (
          <button type="button" className="btn critical-banner-ack" disabled={busy} onClick={() => void ack()}>
            Acknowledge
          </button>
        ) : (
          <span className="critical-banner-more">An operator or admin can acknowledge it</span>
        )}
        <Link to="/dashboard/alerts" className="critical-banner-link">View</Link>
      </div>
    </div>
  );
}
