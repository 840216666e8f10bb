// 'Alert History': status and severity filters, a scrollable list (max-h-96 = 24rem), delete for
// unresolved alerts (operators and admins). The filters are lifted so Export uses the same ones.
import { Trash2 } from 'lucide-react';
import { useAlertActions, useAlertHistory, type SeverityFilter, type StatusFilter } from '../../api/alerts.ts';
import { errorMessage } from '../../api/client.ts';
import { useCanModify } from '../../auth/permissions.ts';
import { StaleNote, UnreachableNotice } from '../../components/DataState.tsx';
import { toast } from '../../components/toast/index.ts';
import { useConfirm } from '../../components/confirm/ConfirmProvider.tsx';
import { formatAlertType, formatTimestamp } from '../../format.ts';
import { useThingName } from '../../names-hook.ts';
import { SeverityBadge } from './SeverityBadge.tsx';

export interface HistoryFilters {
  status: StatusFilter;
  severity: SeverityFilter;
}

export function AlertHistory({ filters, onChange }: { filters: HistoryFilters; onChange: (next: HistoryFilters) => void }) {
  const history = useAlertHistory(filters.status, filters.severity);
  const canModify = useCanModify();
  const actions = useAlertActions();
  const thingName = useThingName();
  const confirm = useConfirm();
  const alerts = history.data ?? [];

  async function remove(id: string) {
    if (!(await confirm({ title: 'Delete alert', message: 'Are you sure you want to delete this alert?', confirmLabel: 'Delete', danger: true }))) return;
    try {
      await actions.remove(id);
      toast.success('Alert deleted successfully');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to delete alert'));
    }
  }

  return (
    <section className="card" data-testid="alert-history">
      <div className="card-header">
        <h3>Alert History</h3>
        <div className="alert-filters">
          <label className="alert-filter">
            Status
            <select id="alert-status-filter" aria-label="Status filter" value={filters.status}
              onChange={(e) => onChange({ ...filters, status: e.target.value as StatusFilter })}>
              <option value="all">All</option>
              <option value="active">Active Only</option>
              <option value="resolved">Resolved Only</option>
            </select>
          </label>
          <label className="alert-filter">
            Severity
            <select id="alert-severity-filter" aria-label="Severity filter" value={filters.severity}
              onChange={(e) => onChange({ ...filters, severity: e.target.value as SeverityFilter })}>
              <option value="all">All</option>
              <option value="CRITICAL">Critical</option>
              <option value="HIGH">High</option>
              <option value="MEDIUM">Medium</option>
              <option value="LOW">Low</option>
            </select>
          </label>
        </div>
      </div>
      <div className="alert-history-scroll">
        <StaleNote query={history} />
        {history.isError && history.data === undefined ? (
          <UnreachableNotice what="alerts" error={history.error} />
        ) : history.isPending ? (
          <p className="muted empty-state">Loading alerts...</p>
        ) : alerts.length === 0 ? (
          <p className="muted empty-state">No alerts found</p>
        ) : (
          <ul className="alert-list">
            {alerts.map((alert) => (
              <li key={alert._id} data-testid="history-alert" data-alert-id={alert._id}
                className={`alert-item ${alert.isResolved ? 'alert-item-resolved' : `alert-item-${alert.severity.toLowerCase()}`}`}>
                <div className="alert-item-main">
                  <div className="row">
                    <strong className="alert-type">{formatAlertType(alert.alertType)}</strong>
                    <SeverityBadge severity={alert.severity} />
                    {alert.isResolved && <span className="badge badge-resolved">Resolved</span>}
                  </div>
                  <p className="alert-message">{alert.message}</p>
                  <p className="muted alert-meta">
                    {alert.deviceId && <span title={alert.deviceId}>{thingName(alert.deviceId)}</span>}
                    <span>Created: {formatTimestamp(alert.createdAt)}</span>
                    {alert.resolvedAt && <span>Resolved: {formatTimestamp(alert.resolvedAt)}</span>}
                  </p>
                  {alert.isResolved && alert.actionTaken && (
                    <p className="alert-action"><strong>Action Taken:</strong> {alert.actionTaken}</p>
                  )}
                </div>
                {canModify && !alert.isResolved && (
                  <button type="button" className="icon-button" aria-label={`Delete ${formatAlertType(alert.alertType)}`} title="Delete"
                    onClick={() => void remove(alert._id)}>
                    <Trash2 size={18} aria-hidden />
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
