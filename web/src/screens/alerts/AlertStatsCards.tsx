// Alert System stat cards: Total, Active, Resolved, Resolution Rate (docs/product.md §2, §3).
import type { AlertStats } from '../../../../server/contract/alert.ts';
import { MISSING } from '../../format.ts';

/** Resolved / total, rounded to a whole percent; 0 when there are no alerts. */
export function resolutionRate(stats: AlertStats | null | undefined): number {
  const total = stats?.overall.totalAlerts ?? 0;
  return total > 0 ? Math.round(((stats?.overall.totalResolved ?? 0) / total) * 100) : 0;
}

export function AlertStatsCards({ stats }: { stats: AlertStats | null | undefined }) {
  // Unknown stays '---': a gateway that did not answer has not reported zero alerts.
  const count = (n: number | undefined) => (n === undefined ? MISSING : String(n));
  const cards = [
    { label: 'Total', value: count(stats?.overall.totalAlerts) },
    { label: 'Active', value: count(stats?.overall.totalActive) },
    { label: 'Resolved', value: count(stats?.overall.totalResolved) },
    { label: 'Resolution Rate', value: stats ? `${resolutionRate(stats)}%` : MISSING },
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
