// Screens inside the shell (paths relative to /dashboard). Add a screen here and in nav-items.ts.
import { Navigate, Route, Routes } from 'react-router';
import { AlertsScreen } from '../screens/AlertsScreen.tsx';
import { AnalyticsScreen } from '../screens/AnalyticsScreen.tsx';
import { DevicesScreen } from '../screens/DevicesScreen.tsx';
import { OverviewScreen } from '../screens/OverviewScreen.tsx';
import { SensorsScreen } from '../screens/SensorsScreen.tsx';
import { SettingsScreen } from '../screens/SettingsScreen.tsx';

export function DashboardRoutes() {
  return (
    <Routes>
      <Route index element={<OverviewScreen />} />
      <Route path="sensors" element={<SensorsScreen />} />
      <Route path="devices" element={<DevicesScreen />} />
      <Route path="alerts" element={<AlertsScreen />} />
      <Route path="analytics" element={<AnalyticsScreen />} />
      <Route path="settings" element={<SettingsScreen />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
