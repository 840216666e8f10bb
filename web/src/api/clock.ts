// The gateway's wall clock, from /api/health's `clock` (docs/hardware.md, "Time without a clock").
import { useQuery } from '@tanstack/react-query';
import type { ClockStatus } from '../../../server/contract/clock.ts';
import { api } from './client.ts';

/** Checked every half minute: a Pi sets its clock within seconds of reaching a time server. */
const CLOCK_POLL_MS = 30_000;

/** The gateway's clock status, or null before the first answer. */
export function useClockStatus(): ClockStatus | null {
  const query = useQuery({
    queryKey: ['health', 'clock'] as const,
    queryFn: async ({ signal }) => (await api.get<{ clock?: ClockStatus }>('/api/health', { signal })).clock ?? null,
    refetchInterval: CLOCK_POLL_MS,
  });
  return query.data ?? null;
}
