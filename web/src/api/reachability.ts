// Whether the gateway answers, and since when it has not. Fed by every query and mutation outcome
// (a fetch that got no answer at all is "unreachable"; any answer, even a 4xx, proves it is up), so
// screens can say "Gateway unreachable since 14:03" instead of showing empty data.
//   const { unreachableSinceMs } = useReachability();
import { createContext, useContext, useSyncExternalStore } from 'react';
import { ApiError } from './client.ts';

export interface ReachabilityState {
  /** Epoch ms of the first failed call of the current outage; null while the gateway answers. */
  unreachableSinceMs: number | null;
}

/** True when a call failed because nothing answered (network down, gateway stopped, time-out). */
export function isNoAnswer(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/** The gateway answered "not yet" (503): history while its rollups catch up after an upgrade or a restore. */
export function isNotYet(error: unknown): boolean {
  return error instanceof ApiError && error.status === 503;
}

export class Reachability {
  private state: ReachabilityState = { unreachableSinceMs: null };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): ReachabilityState => this.state;

  /** A call got an answer (success or an HTTP error): the gateway is up. */
  answered(): void {
    this.set({ unreachableSinceMs: null });
  }

  /** A call failed: counts only when nothing answered. */
  failed(error: unknown): void {
    if (!isNoAnswer(error)) {
      this.answered();
      return;
    }
    if (this.state.unreachableSinceMs === null) this.set({ unreachableSinceMs: this.now() });
  }

  private set(next: ReachabilityState): void {
    if (next.unreachableSinceMs === this.state.unreachableSinceMs) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

export const ReachabilityContext = createContext<Reachability | null>(null);

export function useReachability(): ReachabilityState {
  const reachability = useContext(ReachabilityContext);
  if (!reachability) throw new Error('useReachability must be used inside <ReachabilityContext.Provider>');
  return useSyncExternalStore(reachability.subscribe, reachability.getState);
}

export function useReachabilityTracker(): Reachability {
  const reachability = useContext(ReachabilityContext);
  if (!reachability) throw new Error('useReachabilityTracker must be used inside <ReachabilityContext.Provider>');
  return reachability;
}
