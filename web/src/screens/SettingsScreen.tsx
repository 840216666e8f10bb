// Settings screen (spec section 2, "Settings"). Placeholder until its issue lands: replace the body,
// keep the export name (shell/DashboardRoutes.tsx routes to it).
import { ComingSoon } from '../components/ComingSoon.tsx';

export function SettingsScreen() {
  return (
    <div className="screen">
      <h1 className="screen-title">Settings</h1>
      <ComingSoon />
    </div>
  );
}
