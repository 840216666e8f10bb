// Truthful data states: a failed load is never shown as empty data.
//   <QueryGate query={devicesQuery} what="devices">...the list or its real empty state...</QueryGate>
//   <StaleNote query={devicesQuery} />   // "Last updated 14:03 (5 minutes ago)" while loads fail
import type { ReactNode } from 'react';
import { CloudOff } from 'lucide-react';
import { isNoAnswer, isNotYet, useReachability } from '../api/reachability.ts';
import { formatClock, formatRelativeTime } from '../format.ts';
import { useNow } from './useNow.ts';

/** What these components need from a TanStack query result. */
export interface QueryTruth {
  data: unknown;
  isError: boolean;
  error: unknown;
  dataUpdatedAt: number;
}

/** "Gateway unreachable since 14:03", or the gateway's own refusal, in place of data never loaded. */
export function UnreachableNotice({ what, error }: { what: string; error?: unknown }) {
  const { unreachableSinceMs } = useReachability();
  const noAnswer = error === undefined || isNoAnswer(error);
  return (
    <div className="unreachable" role="status" data-testid="unreachable-notice">
      <CloudOff size={28} aria-hidden />
      <strong>
        {noAnswer && unreachableSinceMs !== null
          ? `Gateway unreachable since ${formatClock(unreachableSinceMs)}`
          : isNotYet(error)
            ? `${what.charAt(0).toUpperCase()}${what.slice(1)} is not ready yet`
            : `Could not load ${what}`}
      </strong>
      <p>{noAnswer ? `No ${what} to show until the gateway answers. Retrying automatically.` : errorText(error)}</p>
    </div>
  );
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The gateway refused the request.';
}

/** Shows `children` when there is data (current or last known); the notice when there never was. */
export function QueryGate({ query, what, children }: { query: QueryTruth; what: string; children: ReactNode }) {
  if (query.data === undefined && query.isError) return <UnreachableNotice what={what} error={query.error} />;
  return <>{children}</>;
}

/** While loads fail but earlier data is shown: say how old it is. Renders nothing when data is current. */
export function StaleNote({ query }: { query: QueryTruth }) {
  const nowMs = useNow();
  if (!query.isError || query.data === undefined || !query.dataUpdatedAt) return null;
  return (
    <p className="stale-note" data-testid="stale-note">
      Last updated {formatClock(query.dataUpdatedAt)} ({formatRelativeTime(new Date(query.dataUpdatedAt).toISOString(), nowMs)})
    </p>
  );
}

/**
 * Above a chart that keeps the range it loaded before while a reload fails: says so, and when the gateway
 * answered "not yet" (history rebuilt after an upgrade or a restore), says that in its own words.
 */
export function HistoryStaleNote({ error }: { error: unknown }) {
  return (
    <p className="stale-note" data-testid="history-stale-note">
      {isNotYet(error)
        ? `Showing what was loaded before. ${errorText(error)}.`
        : 'Could not refresh the history: showing what was loaded before.'}
    </p>
  );
}
