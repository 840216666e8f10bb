// The Overview's four stat cards (spec section 2), counted from the shared queries.
import { AlertTriangle, Bell, Cpu, Power, type LucideIcon } from 'lucide-react';
import { countUrgentAlerts, useActiveAlerts, useDevices } from '../../api/queries.ts';

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

function StatCard({ label, value, icon: Icon, alarm = false }: { label: string; value: number; icon: LucideIcon; alarm?: boolean }) {
  return (
    <div className={`card stat-card${alarm ? ' stat-card-alarm' : ''}`} data-testid={`stat-${label.toLowerCase().replace(/ /g, '-')}`}>
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value">{value}</p>
      </div>
      <Icon size={28} aria-hidden className="stat-icon" />
    </div>
  );
}
