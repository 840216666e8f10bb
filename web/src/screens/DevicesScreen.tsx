// Device Control screen (spec section 2, "Device Control"). Placeholder until its issue lands: replace the body,
// keep the export name (shell/DashboardRoutes.tsx routes to it).
import { ComingSoon } from '../components/ComingSoon.tsx';

export function DevicesScreen() {
  return (
    <div className="screen">
      <h1 className="screen-title">Device Control</h1>
      <ComingSoon />
    </div>
  );
}
