// The signed-in frame: sidebar, header, pull-to-refresh and the screen area.
// On entry it loads the shared data (latest readings, devices, active alerts) and shows
// 'Loading greenhouse data...' until the first load settles (docs/product.md §2).
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useActiveAlerts, useDevices, useLatestReadings } from '../api/queries.ts';
import { Spinner } from '../components/Spinner.tsx';
import { AlertNotifier } from '../screens/alerts/AlertNotifier.tsx';
import { CriticalBanner } from './CriticalBanner.tsx';
import { DashboardRoutes } from './DashboardRoutes.tsx';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';
import { StatusNotices } from './StatusNotices.tsx';
import { usePullToRefresh } from './usePullToRefresh.ts';

export function DashboardShell() {
  const [menuOpen, setMenuOpen] = useState(false);
  const queryClient = useQueryClient();
  const readings = useLatestReadings();
  const devices = useDevices();
  const alerts = useActiveAlerts();
  // Pending = no data and no error yet: a failed first load goes on to the screens, which say so.
  const firstLoad = (readings.isPending && readings.fetchStatus === 'fetching') || (devices.isPending && devices.fetchStatus === 'fetching') || (alerts.isPending && alerts.fetchStatus === 'fetching');
  // "Refreshes all data": every active query, whatever screen is showing.
  const pull = usePullToRefresh(() => queryClient.invalidateQueries());
  // Each screen opens at its top, not at the scroll position of the previous one.
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

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
          <CriticalBanner />
          <StatusNotices />
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
