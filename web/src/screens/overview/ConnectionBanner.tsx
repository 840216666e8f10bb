// Overview connection banner (spec section 2): realtime link state in words.
import { Wifi, WifiOff } from 'lucide-react';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';

export function ConnectionBanner() {
  const { connected } = useRealtime();
  return (
    <section className={`banner ${connected ? 'banner-ok' : 'banner-bad'}`} data-testid="connection-banner">
      {connected ? <Wifi size={20} aria-hidden /> : <WifiOff size={20} aria-hidden />}
      <div>
        <strong>{connected ? 'System Connected' : 'System Disconnected'}</strong>
        <p>{connected ? 'Real-time data updates active' : 'Check your connection'}</p>
      </div>
    </section>
  );
}
