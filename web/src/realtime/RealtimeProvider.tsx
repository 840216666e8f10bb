// React side of the realtime link. Mount inside AuthProvider and QueryClientProvider.
//   const { connected, subscribe, send } = useRealtime();
//   useEffect(() => subscribe('newAlert', (alert) => ...), [subscribe]);   // returns the unsubscribe
//   send('device-control', { deviceId, action: 'toggle', greenhouseId });   // from useGreenhouseId()
// Handlers run once per animation frame batch, in arrival order. The shared queries are already
// kept fresh here (event-effects.ts); screens subscribe only for extra effects such as toasts.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ClientEvents, ServerEvents, ServerMessage } from '../../../server/contract/realtime.ts';
import { useGreenhouseId } from '../api/queries.ts';
import { signalUnauthorized } from '../api/session-store.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { toast } from '../components/toast/index.ts';
import { applyRealtimeBatch, refreshShellData } from './event-effects.ts';
import { SocketClient } from './socket-client.ts';

type Handler<E extends keyof ServerEvents> = (data: ServerEvents[E]) => void;

export interface RealtimeContextValue {
  connected: boolean;
  subscribe: <E extends keyof ServerEvents>(event: E, handler: Handler<E>) => () => void;
  /** False when the link is down and the message was not sent. */
  send: <E extends keyof ClientEvents>(event: E, data: ClientEvents[E]) => boolean;
}

const RealtimeContext = createContext<RealtimeContextValue | null>(null);

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { token: sessionToken, user } = useAuth();
  // A pending account gets no live stream (the gateway closes it with 4403): open none until granted.
  const token = user?.pending ? null : sessionToken;
  const greenhouseId = useGreenhouseId();
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const clientRef = useRef<SocketClient | null>(null);
  const handlersRef = useRef(new Map<string, Set<(data: unknown) => void>>());

  useEffect(() => {
    if (!token) return;
    const client = new SocketClient(token, greenhouseId, {
      onConnectedChange: (connected) => {
        setConnected(connected);
        // Back online: the "Connection lost" error has stopped being true.
        if (connected) toast.clear('realtime');
      },
      onJoined: (afterOutage) => {
        // Say so when the link comes back; a normal page load is not news.
        if (afterOutage) toast.success('Connected to greenhouse system');
        refreshShellData(queryClient);
      },
      onBatch: (batch: readonly ServerMessage[]) => {
        applyRealtimeBatch(queryClient, batch);
        for (const message of batch) {
          for (const handler of handlersRef.current.get(message.event) ?? []) {
            try {
              handler(message.data);
            } catch (err) {
              // One faulty screen handler must not stop the others.
              console.error(`Realtime handler for ${message.event} failed:`, err);
            }
          }
        }
      },
      onUnauthorized: () => signalUnauthorized(token),
      onProblem: (kind, reason) => {
        toast.error(`Connection ${kind === 'lost' ? 'lost' : 'failed'}: ${reason}`, { key: 'realtime' });
        // Find out at once whether the gateway itself is gone, rather than at the next 15 s poll.
        if (kind === 'lost') refreshShellData(queryClient);
      },
    });
    clientRef.current = client;
    client.start();
    // A phone waking up, regaining Wi-Fi or the tab regaining focus retries at once, not after the back-off.
    const retry = () => client.retryNow();
    const onVisible = () => document.visibilityState === 'visible' && retry();
    window.addEventListener('online', retry);
    window.addEventListener('focus', retry);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('online', retry);
      window.removeEventListener('focus', retry);
      document.removeEventListener('visibilitychange', onVisible);
      client.stop();
      clientRef.current = null;
      setConnected(false);
    };
  }, [token, greenhouseId, queryClient]);

  const subscribe = useCallback(<E extends keyof ServerEvents>(event: E, handler: Handler<E>) => {
    const handlers = handlersRef.current;
    let set = handlers.get(event);
    if (!set) handlers.set(event, (set = new Set()));
    const entry = handler as (data: unknown) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }, []);

  const send = useCallback(<E extends keyof ClientEvents>(event: E, data: ClientEvents[E]) => {
    return clientRef.current?.send(event, data) ?? false;
  }, []);

  const value = useMemo(() => ({ connected, subscribe, send }), [connected, subscribe, send]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeContextValue {
  const value = useContext(RealtimeContext);
  if (!value) throw new Error('useRealtime must be used inside <RealtimeProvider>');
  return value;
}
