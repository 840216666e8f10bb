import type { Severity } from '../../../../server/contract/alert.ts';

/** Severity colours (docs/product.md §9): critical red, high light red, medium yellow, low blue. */
export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <span className={`badge badge-${severity.toLowerCase()}`} data-testid="severity-badge">
      {severity}
    </span>
  );
}
