// What realtime events do to the shared query cache (docs/product.md §4: data refreshes on control events).
// Called once per animation-frame batch, so a burst of events costs one invalidation per key.
import type { Query, QueryClient } from '@tanstack/react-query';
import type { Reading } from '../../../server/contract/reading.ts';
import type { ServerMessage } from '../../../server/contract/realtime.ts';
import { queryKeys } from '../api/queries.ts';

// Prefix keys: every query whose key starts with 'devices' / 'alerts' (lists, stats, history) refreshes.
const DEVICE_EVENTS = new Set(['deviceUpdate', 'deviceControlled', 'device-control-update', 'deviceAdded', 'deviceRemoved']);
const ALERT_EVENTS = new Set(['newAlert', 'alertResolved', 'alertAcknowledged']);

export function applyRealtimeBatch(queryClient: QueryClient, batch: readonly ServerMessage[]): void {
  let devices = false;
  let alerts = false;
  let sensorsAsWhole = false;
  const readings: Reading[] = [];

  for (const message of batch) {
    if (DEVICE_EVENTS.has(message.event)) devices = true;
    else if (ALERT_EVENTS.has(message.event)) alerts = true;
    else if (message.event === 'sensorUpdate') readings.push(message.data);
    else if (message.event === 'allSensorsUpdate') sensorsAsWhole = true;
  }

  if (devices) refetchAfterEvent(queryClient, [queryKeys.devices[0]]);
  if (alerts) refetchAfterEvent(queryClient, [queryKeys.activeAlerts[0]]);

  if (readings.length > 0) {
    // Patch the latest-readings cache in place: one reading per sensor type, newest wins.
    queryClient.setQueriesData<Reading[]>({ queryKey: queryKeys.latestReadings }, (old) => {
      // Nothing loaded yet: leave it to the fetch (a partial list would look like missing sensors).
      if (!old) return old;
      const bySensor = new Map(old.map((r) => [r.sensorType, r] as const));
      for (const reading of readings) bySensor.set(reading.sensorType, reading);
      return [...bySensor.values()];
    });
  } else if (sensorsAsWhole) {
    // The summary message has no per-sensor rows; fetch them.
    void queryClient.invalidateQueries({ queryKey: queryKeys.latestReadings });
  }
}

/**
 * Marks the queries under `queryKey` stale and refetches the shown ones. A first fetch still in flight
 * may have been answered before the event happened, and TanStack Query would hand its answer to the
 * refetch instead of asking again (it only cancels an in-flight fetch that replaces data): so such a
 * fetch is cancelled first, and the event always leads to a request made after it.
 */
function refetchAfterEvent(queryClient: QueryClient, queryKey: readonly unknown[]): void {
  const isFirstFetchInFlight = (query: Query) => query.state.data === undefined && query.state.fetchStatus === 'fetching';
  void queryClient
    .cancelQueries({ queryKey, predicate: isFirstFetchInFlight })
    .then(() => queryClient.invalidateQueries({ queryKey }));
}

/** On (re)joining the greenhouse: fetch everything the shell shows (docs/product.md §4). */
export function refreshShellData(queryClient: QueryClient): void {
  for (const key of Object.values(queryKeys)) void queryClient.invalidateQueries({ queryKey: key });
}
