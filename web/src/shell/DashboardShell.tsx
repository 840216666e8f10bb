// The signed-in frame: sidebar, header, pull-to-refresh and the screen area.
// On entry it loads the shared data (latest readings, devices, active alerts) and shows
// 'Loading greenhouse data...' until the first load settles (spec section 2).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useActiveAlerts, useDevices, useLatestReadings } from '../api/queries.ts';
import { Spinner } from '../components/Spinner.tsx';
import { AlertNotifier } from '../screens/alerts/AlertNotifier.tsx';
import { DashboardRoutes } from './DashboardRoutes.tsx';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';
import { usePullToRefresh } from './usePullToRefresh.ts';

export function DashboardShell() {
  const [menuOpen, setMenuOpen] = useState(false);
  const queryClient = useQueryClient();
  const readings = useLatestReadings();
  const devices = useDevices();
  const alerts = useActiveAlerts();
  const firstLoad = readings.isPending || devices.isPending || alerts.isPending;
  // "Refreshes all data": every active query, whatever screen is showing.
  const pull = usePullToRefresh(() => queryClient.invalidateQueries());

  return (
    <div className="shell">
      <AlertNotifier />
      <Sidebar open={menuOpen} onClose={() => setMenuOpen(false)} />
      <div className="shell-main">
        <Header menuOpen={menuOpen} onMenu={() => setMenuOpen((v) => !v)} />
        {pull !== 'idle' && (
          <div className="pull-hint" role="status">
            {pull === 'refreshing' && <Spinner size="sm" label="Refreshing" />}
            {pull === 'refreshing' ? 'Refreshing...' : 'Pull down to refresh'}
          </div>
        )}
        <main className="content">
          {firstLoad ? (
            <div className="center-block">
              <Spinner size="lg" label="Loading greenhouse data" />
              <p className="muted">Loading greenhouse data...</p>
            </div>
          ) : (
            <DashboardRoutes />
          )}
        </main>
      </div>
    </div>
  );
}
