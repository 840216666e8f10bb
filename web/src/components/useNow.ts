import { useEffect, useState } from 'react';

/** The current time, re-read every `periodMs` so ages ('3 minutes ago', stale marks) keep moving. */
export function useNow(periodMs = 30_000): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return nowMs;
}
