// Notices above every screen: the gateway does not answer (last known values are shown, marked stale),
// its database refuses writes (nothing is being recorded), maintenance mode is on (device control is
// refused except switching off), or the gateway's clock is not synchronised (schedules hold their
// devices off).
import { Clock, CloudOff, HardDrive, Wrench } from 'lucide-react';
import { useClockStatus, useDatabaseProblem } from '../api/shell-health.ts';
import { useReachability } from '../api/reachability.ts';
import { useMaintenanceMode } from '../api/settings.ts';
import { formatClock } from '../format.ts';

export const MAINTENANCE_REASON = 'Maintenance mode is on: devices can only be switched off.';

export function StatusNotices() {
  const { unreachableSinceMs } = useReachability();
  const maintenance = useMaintenanceMode();
  const clock = useClockStatus();
  const databaseProblem = useDatabaseProblem();
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
      {unreachableSinceMs === null && databaseProblem !== null && (
        <div className="notice notice-bad" role="alert" data-testid="storage-notice">
          <HardDrive size={20} aria-hidden />
          <div>
            <strong>Nothing is being recorded</strong>
            <p>
              The gateway's database refuses writes ({databaseProblem}). Devices still switch and their limits still act, but
              readings, switches and alerts are not stored. Free space on the SD card, or replace a failing card.
            </p>
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
      {clock && !clock.synchronised && (
        <div className="notice notice-warn" role="status" data-testid="clock-notice">
          <Clock size={20} aria-hidden />
          <div>
            <strong>Clock not synchronised</strong>
            <p>The gateway has not set its clock from a time server yet (a Raspberry Pi has no clock of its own). Scheduled devices stay off until it has.</p>
          </div>
        </div>
      )}
    </>
  );
}
