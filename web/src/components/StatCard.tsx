// A summary card: label, big number and icon; red when `alarm` (spec: alert cards above 0).
import type { LucideIcon } from 'lucide-react';

export function StatCard({ label, value, icon: Icon, testId, alarm = false }: {
  label: string;
  /** A count, or '---' when it is not known (never a 0 for "could not load"). */
  value: number | string;
  icon: LucideIcon;
  testId: string;
  alarm?: boolean;
}) {
  return (
    <div className={`card stat-card${alarm ? ' stat-card-alarm' : ''}`} data-testid={testId}>
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value">{value}</p>
      </div>
      <Icon size={28} aria-hidden className="stat-icon" />
    </div>
  );
}
