// Alert System screen (docs/product.md §2): export, stats, current active alerts (10), history with
// filters, and the read-only alert configuration.
import { useState } from 'react';
import { Download } from 'lucide-react';
import { useAlertActions, useAlertStats } from '../api/alerts.ts';
import { errorMessage } from '../api/client.ts';
import { toast } from '../components/toast/index.ts';
import { AcknowledgePrompt } from './alerts/AcknowledgePrompt.tsx';
import { AlertConfiguration } from './alerts/AlertConfiguration.tsx';
import { AlertHistory, type HistoryFilters } from './alerts/AlertHistory.tsx';
import { AlertStatsCards } from './alerts/AlertStatsCards.tsx';
import { ActiveAlertsWidget } from './overview/ActiveAlertsWidget.tsx';
import './alerts/alerts.css';

export function AlertsScreen() {
  const stats = useAlertStats().data;
  const actions = useAlertActions();
  const [filters, setFilters] = useState<HistoryFilters>({ status: 'all', severity: 'all' });
  const [exporting, setExporting] = useState(false);

  async function exportAlerts() {
    setExporting(true);
    try {
      // The filtered history, as a real CSV download (bearer fetch -> blob, no token in a URL).
      await actions.exportCsv(filters.status, filters.severity);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to export alerts'));
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="screen">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1 className="screen-title">Alert System</h1>
        <button type="button" className="btn btn-secondary" onClick={() => void exportAlerts()} disabled={exporting}>
          <Download size={18} aria-hidden />
          Export Alerts
        </button>
      </div>
      <AcknowledgePrompt />
      <AlertStatsCards stats={stats} />
      <ActiveAlertsWidget max={10} title="Current Active Alerts" />
      <AlertHistory filters={filters} onChange={setFilters} />
      <AlertConfiguration />
    </div>
  );
}
