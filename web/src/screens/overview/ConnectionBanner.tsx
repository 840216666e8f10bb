// Connection banner (docs/product.md §2): the realtime link state in words, and when the gateway itself
// does not answer, since when (an outage must never read as a quiet greenhouse).
import { Wifi, WifiOff } from 'lucide-react';
import { useReachability } from '../../api/reachability.ts';
import { formatClock } from '../../format.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';

export function ConnectionBanner() {
  const { connected } = useRealtime();
  const { unreachableSinceMs } = useReachability();
  const detail = connected
    ? 'Real-time data updates active'
    : unreachableSinceMs !== null
      ? `Gateway unreachable since ${formatClock(unreachableSinceMs)}`
      : 'Check your connection';
  return (
    <section className={`banner ${connected ? 'banner-ok' : 'banner-bad'}`} data-testid="connection-banner" role="status">
      {connected ? <Wifi size={20} aria-hidden /> : <WifiOff size={20} aria-hidden />}
      <div>
        <strong>{connected ? 'System Connected' : 'System Disconnected'}</strong>
        <p>{detail}</p>
      </div>
    </section>
  );
}
