// Overview widget "Active Alerts" (spec section 2, Overview). Placeholder: the engineer building it
// replaces the body; data comes from the shared hooks in api/queries.ts.
import { ComingSoon } from '../../components/ComingSoon.tsx';

export function ActiveAlertsWidget() {
  return <ComingSoon title="Active Alerts" />;
}
