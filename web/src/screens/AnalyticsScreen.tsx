// Analytics Dashboard screen (spec section 2, "Analytics Dashboard"). Placeholder until its issue lands: replace the body,
// keep the export name (shell/DashboardRoutes.tsx routes to it).
import { ComingSoon } from '../components/ComingSoon.tsx';

export function AnalyticsScreen() {
  return (
    <div className="screen">
      <h1 className="screen-title">Analytics Dashboard</h1>
      <ComingSoon />
    </div>
  );
}
