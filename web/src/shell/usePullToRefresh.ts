// Pull-to-refresh for touch screens (docs/product.md §2, §9): at the top of the page, a downward drag
// shows a hint after 50 px ('Pull down to refresh') and refreshes all data past 100 px ('Refreshing...').
import { useEffect, useRef, useState } from 'react';

export const PULL_HINT_PX = 50;
export const PULL_REFRESH_PX = 100;

export type PullState = 'idle' | 'pulling' | 'refreshing';

export function usePullToRefresh(onRefresh: () => Promise<unknown>): PullState {
  const [state, setState] = useState<PullState>('idle');
  const refreshRef = useRef(onRefresh);
  refreshRef.current = onRefresh;

  useEffect(() => {
    let startY: number | null = null;
    let distance = 0;
    let refreshing = false;

    const onStart = (e: TouchEvent) => {
      // Only a drag that starts with the page scrolled to the very top is a pull.
      startY = window.scrollY <= 0 && !refreshing ? (e.touches[0]?.clientY ?? null) : null;
      distance = 0;
    };
    const onMove = (e: TouchEvent) => {
      if (startY === null) return;
      distance = (e.touches[0]?.clientY ?? startY) - startY;
      setState(distance > PULL_HINT_PX ? 'pulling' : 'idle');
    };
    const onEnd = () => {
      if (startY === null) return;
      startY = null;
      if (distance <= PULL_REFRESH_PX) {
        setState('idle');
        return;
      }
      refreshing = true;
      setState('refreshing');
      refreshRef.current().finally(() => {
        refreshing = false;
        setState('idle');
      });
    };

    window.addEventListener('touchstart', onStart, { passive: true });
    window.addEventListener('touchmove', onMove, { passive: true });
    window.addEventListener('touchend', onEnd);
    window.addEventListener('touchcancel', onEnd);
    return () => {
      window.removeEventListener('touchstart', onStart);
      window.removeEventListener('touchmove', onMove);
      window.removeEventListener('touchend', onEnd);
      window.removeEventListener('touchcancel', onEnd);
    };
  }, []);

  return state;
}
