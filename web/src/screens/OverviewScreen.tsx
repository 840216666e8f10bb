// Overview (docs/product.md §2, "Overview"). Each widget is its own file in ./overview/. The readings come
// first (on a phone the grower opens the dashboard to see them), then the link and counts.
import { ActiveAlertsWidget } from './overview/ActiveAlertsWidget.tsx';
import { ConnectionBanner } from './overview/ConnectionBanner.tsx';
import { ClimateMetrics } from './sensors/ClimateMetrics.tsx';
import { CurrentTargets } from './climate/CurrentTargets.tsx';
import { DeviceStatus } from './overview/DeviceStatus.tsx';
import { EnvironmentalStatus } from './overview/EnvironmentalStatus.tsx';
import { SensorOverview } from './overview/SensorOverview.tsx';
import { StatCards } from './overview/StatCards.tsx';

export function OverviewScreen() {
  return (
    <div className="screen">
      <SensorOverview />
      <ClimateMetrics />
      <CurrentTargets linkToEditor />
      <ConnectionBanner />
      <StatCards />
      <div className="grid grid-2">
        <DeviceStatus />
        <ActiveAlertsWidget max={4} />
      </div>
      <EnvironmentalStatus />
    </div>
  );
}
