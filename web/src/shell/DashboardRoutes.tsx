// Screens inside the shell (paths relative to /dashboard). Add a screen here and in nav-items.ts.
// Only the Overview is in the first download; the other screens (and uPlot, which only the Sensors and
// Analytics charts use) load when first opened: the dashboard is opened on phones over greenhouse Wi-Fi.
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from '../components/Spinner.tsx';
import { ScreenErrorBoundary } from './ScreenErrorBoundary.tsx';
import { OverviewScreen } from '../screens/OverviewScreen.tsx';

const loaders = {
  sensors: () => import('../screens/SensorsScreen.tsx').then((m) => ({ default: m.SensorsScreen })),
  devices: () => import('../screens/DevicesScreen.tsx').then((m) => ({ default: m.DevicesScreen })),
  alerts: () => import('../screens/AlertsScreen.tsx').then((m) => ({ default: m.AlertsScreen })),
  analytics: () => import('../screens/AnalyticsScreen.tsx').then((m) => ({ default: m.AnalyticsScreen })),
  settings: () => import('../screens/SettingsScreen.tsx').then((m) => ({ default: m.SettingsScreen })),
  climate: () => import('../screens/ClimateScreen.tsx').then((m) => ({ default: m.ClimateScreen })),
};
const SensorsScreen = lazy(loaders.sensors);
const DevicesScreen = lazy(loaders.devices);
const AlertsScreen = lazy(loaders.alerts);
const AnalyticsScreen = lazy(loaders.analytics);
const SettingsScreen = lazy(loaders.settings);
const ClimateScreen = lazy(loaders.climate);

/** Once the first screen is up, fetch the others in the background: a screen opened during a gateway
 *  outage must still open (and say "unreachable"), not fail to load its code. */
function usePrefetchScreens(): void {
  useEffect(() => {
    // After the first screen's own requests are under way.
    const timer = setTimeout(() => {
      for (const load of Object.values(loaders)) load().catch(() => {});
    }, 300);
    return () => clearTimeout(timer);
  }, []);
}

export function DashboardRoutes() {
  usePrefetchScreens();
  return (
    <ScreenErrorBoundary>
    <Suspense
      fallback={
        <div className="center-block">
          <Spinner size="lg" label="Loading screen" />
        </div>
      }
    >
      <Routes>
        <Route index element={<OverviewScreen />} />
        <Route path="sensors" element={<SensorsScreen />} />
        <Route path="devices" element={<DevicesScreen />} />
        <Route path="climate" element={<ClimateScreen />} />
        <Route path="alerts" element={<AlertsScreen />} />
        <Route path="analytics" element={<AnalyticsScreen />} />
        <Route path="settings" element={<SettingsScreen />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
    </ScreenErrorBoundary>
  );
}
