// Active alerts widget (docs/product.md §2): the Overview shows 4, the Alerts screen 10, default 5.
import { useState } from 'react';
import { AlertTriangle, CheckCircle, CheckCircle2 } from 'lucide-react';
import { useAlertActions } from '../../api/alerts.ts';
import { errorMessage } from '../../api/client.ts';
import { useActiveAlerts } from '../../api/queries.ts';
import { useCanModify } from '../../auth/permissions.ts';
import { StaleNote, UnreachableNotice } from '../../components/DataState.tsx';
import { toast } from '../../components/toast/index.ts';
import { useNow } from '../../components/useNow.ts';
import { formatAlertType, formatRelativeTime } from '../../format.ts';
import { useThingName } from '../../names-hook.ts';
import { SeverityBadge } from '../alerts/SeverityBadge.tsx';
import '../alerts/alerts.css';

export function ActiveAlertsWidget({ max = 5, title = 'Active Alerts' }: { max?: number; title?: string }) {
  const query = useActiveAlerts();
  const alerts = (query.data ?? []).filter((a) => !a.isResolved);
  const canModify = useCanModify();
  const actions = useAlertActions();
  const thingName = useThingName();
  const [busyId, setBusyId] = useState<string | null>(null);
  const nowMs = useNow();

  async function resolve(id: string) {
    setBusyId(id);
    try {
      await actions.resolve(id);
      toast.success('Alert resolved successfully', { key: `resolve:${id}` });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to resolve alert'), { key: `resolve:${id}` });
    } finally {
      setBusyId(null);
    }
  }

  // "All Clear!" only from a current answer: a gateway that cannot be asked is not all clear.
  if (query.isError && alerts.length === 0) {
    return (
      <section className="card alerts-widget" data-testid="active-alerts">
        <h3 className="card-header">{title}</h3>
        {query.data === undefined ? <UnreachableNotice what="alerts" error={query.error} /> : (
          <div className="empty-state">
            <p>No active alerts when last checked.</p>
            <StaleNote query={query} />
          </div>
        )}
      </section>
    );
  }

  if (alerts.length === 0) {
    return (
      <section className="card alerts-widget" data-testid="active-alerts">
        {title !== 'Active Alerts' && <h3 className="card-header">{title}</h3>}
        <div className="empty-state">
          <CheckCircle2 size={40} aria-hidden className="all-clear-icon" />
          <h3>All Clear!</h3>
          <p>No active alerts in your greenhouse</p>
        </div>
      </section>
    );
  }

  const shown = alerts.slice(0, max);
  const more = alerts.length - shown.length;
  return (
    <section className="card alerts-widget" data-testid="active-alerts">
      <div className="card-header">
        <div>
          <h3>{title}</h3>
          <p className="muted alerts-subtitle">{alerts.length} alert(s) require attention</p>
        </div>
        <AlertTriangle size={22} aria-hidden className="alerts-warn-icon" />
      </div>
      <StaleNote query={query} />
      <ul className="alert-list">
        {shown.map((alert) => (
          <li key={alert._id} className={`alert-item alert-item-${alert.severity.toLowerCase()}`} data-testid="active-alert" data-alert-id={alert._id}>
            <div className="alert-item-main">
              <div className="row">
                <strong className="alert-type">{formatAlertType(alert.alertType)}</strong>
                <SeverityBadge severity={alert.severity} />
              </div>
              <p className="alert-message">{alert.message}</p>
              <p className="muted alert-meta">
                {alert.deviceId && <span title={alert.deviceId}>{thingName(alert.deviceId)}</span>}
                <span>{formatRelativeTime(alert.createdAt, nowMs)}</span>
              </p>
            </div>
            {canModify && (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => void resolve(alert._id)}
                disabled={busyId === alert._id}
                aria-label={`Resolve ${formatAlertType(alert.alertType)}`}
                title="Resolve"
              >
                <CheckCircle size={16} aria-hidden />
                Resolve
              </button>
            )}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted alerts-more">+{more} more alerts</p>}
    </section>
  );
}
