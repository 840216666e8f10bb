// The Overview's four stat cards (spec section 2), counted from the shared queries.
import { AlertTriangle, Bell, Cpu, Power, type LucideIcon } from 'lucide-react';
import { countUrgentAlerts, useActiveAlerts, useDevices } from '../../api/queries.ts';
import { StatCard as SharedStatCard } from '../../components/StatCard.tsx';

export function StatCards() {
  const devices = useDevices().data ?? [];
  const alerts = useActiveAlerts().data ?? [];
  const activeAlerts = alerts.filter((a) => !a.isResolved).length;
  const critical = countUrgentAlerts(alerts);
  return (
    <div className="grid grid-4">
      <StatCard label="Total Devices" value={devices.length} icon={Cpu} />
      <StatCard label="Active Devices" value={devices.filter((d) => d.status === 'ON').length} icon={Power} />
      <StatCard label="Active Alerts" value={activeAlerts} icon={Bell} alarm={activeAlerts > 0} />
      <StatCard label="Critical Alerts" value={critical} icon={AlertTriangle} alarm={critical > 0} />
    </div>
  );
}

const StatCard = (props: { label: string; value: number; icon: LucideIcon; alarm?: boolean }) => (
  <SharedStatCard {...props} testId={`stat-${props.label.toLowerCase().replace(/ /g, '-')}`} />
);
