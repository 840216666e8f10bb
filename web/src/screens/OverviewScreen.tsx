// Overview (spec section 2, "Overview"). Each widget is its own file in ./overview/, in the
// specification's order.
import { ActiveAlertsWidget } from './overview/ActiveAlertsWidget.tsx';
import { ConnectionBanner } from './overview/ConnectionBanner.tsx';
import { ClimateMetrics } from './sensors/ClimateMetrics.tsx';
import { DeviceStatus } from './overview/DeviceStatus.tsx';
import { EnvironmentalStatus } from './overview/EnvironmentalStatus.tsx';
import { SensorOverview } from './overview/SensorOverview.tsx';
import { StatCards } from './overview/StatCards.tsx';

export function OverviewScreen() {
  return (
    <div className="screen">
      <ConnectionBanner />
      <StatCards />
      {/* Slot: Sensor Overview (four reading cards). */}
      <SensorOverview />
      <ClimateMetrics />
      <div className="grid grid-2">
        {/* Slot: Device Status (first 4 devices). */}
        <DeviceStatus />
        {/* Slot: Active Alerts widget (max 4). */}
        <ActiveAlertsWidget max={4} />
      </div>
      {/* Slot: Environmental Status panel. */}
      <EnvironmentalStatus />
    </div>
  );
}
