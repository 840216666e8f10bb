// The Overview's four stat cards (docs/product.md §2), counted from the shared queries.
import { AlertTriangle, Bell, Cpu, Power, type LucideIcon } from 'lucide-react';
import { countUrgentAlerts, useActiveAlerts, useDevices } from '../../api/queries.ts';
import { StaleNote } from '../../components/DataState.tsx';
import { StatCard as SharedStatCard } from '../../components/StatCard.tsx';
import { MISSING } from '../../format.ts';

export function StatCards() {
  const devicesQuery = useDevices();
  const alertsQuery = useActiveAlerts();
  const devices = devicesQuery.data;
  const alerts = alertsQuery.data;
  const activeAlerts = alerts?.filter((a) => !a.isResolved).length;
  const critical = alerts ? countUrgentAlerts(alerts) : undefined;
  return (
    <div className="stack">
      <div className="grid grid-4">
        <StatCard label="Total Devices" value={devices?.length ?? MISSING} icon={Cpu} />
        <StatCard label="Active Devices" value={devices?.filter((d) => d.status === 'ON').length ?? MISSING} icon={Power} />
        <StatCard label="Active Alerts" value={activeAlerts ?? MISSING} icon={Bell} alarm={(activeAlerts ?? 0) > 0} />
        <StatCard label="Critical Alerts" value={critical ?? MISSING} icon={AlertTriangle} alarm={(critical ?? 0) > 0} />
      </div>
      <StaleNote query={devicesQuery.isError ? devicesQuery : alertsQuery} />
    </div>
  );
}

const StatCard = (props: { label: string; value: number | string; icon: LucideIcon; alarm?: boolean }) => (
  <SharedStatCard {...props} testId={`stat-${props.label.toLowerCase().replace(/ /g, '-')}`} />
);
