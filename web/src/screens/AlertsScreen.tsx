// Alert System screen (spec section 2, "Alert System"). Placeholder until its issue lands: replace the body,
// keep the export name (shell/DashboardRoutes.tsx routes to it).
import { ComingSoon } from '../components/ComingSoon.tsx';

export function AlertsScreen() {
  return (
    <div className="screen">
      <h1 className="screen-title">Alert System</h1>
      <ComingSoon />
    </div>
  );
}
