// What the shell's notices read from /api/health: the gateway's wall clock (docs/hardware.md, "Time
// without a clock") and whether its database takes writes (docs/storage.md, "When the storage refuses
// a write"). One request for both, every half minute.
import { useQuery } from '@tanstack/react-query';
import type { ClockStatus } from '../../../server/contract/clock.ts';
import { api } from './client.ts';

/** Checked every half minute: a Pi sets its clock within seconds of reaching a time server. */
const HEALTH_POLL_MS = 30_000;

interface ShellHealth {
  clock?: ClockStatus;
  database?: { ok: boolean; error?: string };
}

function useShellHealth(): ShellHealth | null {
  const query = useQuery({
    queryKey: ['health', 'shell'] as const,
    queryFn: ({ signal }) => api.get<ShellHealth>('/api/health', { signal }),
    refetchInterval: HEALTH_POLL_MS,
  });
  return query.data ?? null;
}

/** The gateway's clock status, or null before the first answer. */
export function useClockStatus(): ClockStatus | null {
  return useShellHealth()?.clock ?? null;
}

/** Why the gateway's database is not working (it refuses writes: a full or failing SD card), or null. */
export function useDatabaseProblem(): string | null {
  const database = useShellHealth()?.database;
  return database && !database.ok ? (database.error ?? 'it does not answer') : null;
}
