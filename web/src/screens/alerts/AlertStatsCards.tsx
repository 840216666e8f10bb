// Alert System stat cards: Total, Active, Resolved, Resolution Rate (spec sections 2 and 3).
import type { AlertStats } from '../../../../server/contract/alert.ts';

/** Resolved / total, rounded to a whole percent; 0 when there are no alerts. */
export function resolutionRate(stats: AlertStats | null | undefined): number {
  const total = stats?.overall.totalAlerts ?? 0;
  return total > 0 ? Math.round(((stats?.overall.totalResolved ?? 0) / total) * 100) : 0;
}

export function AlertStatsCards({ stats }: { stats: AlertStats | null | undefined }) {
  const cards = [
    { label: 'Total', value: String(stats?.overall.totalAlerts ?? 0) },
    { label: 'Active', value: String(stats?.overall.totalActive ?? 0) },
    { label: 'Resolved', value: String(stats?.overall.totalResolved ?? 0) },
    { label: 'Resolution Rate', value: `${resolutionRate(stats)}%` },
  ];
  return (
    <div className="grid grid-4 alert-stats">
      {cards.map((card) => (
        <div key={card.label} className="card stat-card" data-testid={`alert-stat-${card.label.toLowerCase().replace(/ /g, '-')}`}>
          <div>
            <p className="stat-label">{card.label}</p>
            <p className="stat-value">{card.value}</p>
          </div>
        </div>
      ))}
    </div>
  );
}
