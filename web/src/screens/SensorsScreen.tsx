// Sensor Monitoring screen (spec section 2, "Sensor Monitoring"). Placeholder until its issue lands: replace the body,
// keep the export name (shell/DashboardRoutes.tsx routes to it).
import { ComingSoon } from '../components/ComingSoon.tsx';

export function SensorsScreen() {
  return (
    <div className="screen">
      <h1 className="screen-title">Sensor Monitoring</h1>
      <ComingSoon />
    </div>
  );
}
