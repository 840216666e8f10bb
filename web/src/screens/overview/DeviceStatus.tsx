// Overview widget "Device Status" (spec section 2, Overview). Placeholder: the engineer building it
// replaces the body; data comes from the shared hooks in api/queries.ts.
import { ComingSoon } from '../../components/ComingSoon.tsx';

export function DeviceStatus() {
  return <ComingSoon title="Device Status" />;
}
