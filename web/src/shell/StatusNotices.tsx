// Notices above every screen: the gateway does not answer (last known values are shown, marked stale),
// or maintenance mode is on (device control is refused except switching off).
import { CloudOff, Wrench } from 'lucide-react';
import { useReachability } from '../api/reachability.ts';
import { useMaintenanceMode } from '../api/settings.ts';
import { formatClock } from '../format.ts';

export const MAINTENANCE_REASON = 'Maintenance mode is on: devices can only be switched off.';

export function StatusNotices() {
  const { unreachableSinceMs } = useReachability();
  const maintenance = useMaintenanceMode();
  return (
    <>
      {unreachableSinceMs !== null && (
        <div className="notice notice-bad" role="alert" data-testid="gateway-unreachable">
          <CloudOff size={20} aria-hidden />
          <div>
            <strong>Gateway unreachable since {formatClock(unreachableSinceMs)}</strong>
            <p>Showing the last known values, marked stale. Retrying automatically.</p>
          </div>
        </div>
      )}
      {maintenance && (
        <div className="notice notice-warn" role="status" data-testid="maintenance-notice">
          <Wrench size={20} aria-hidden />
          <div>
            <strong>Maintenance mode</strong>
            <p>{MAINTENANCE_REASON} An admin turns it off in Settings, System.</p>
          </div>
        </div>
      )}
    </>
  );
}
