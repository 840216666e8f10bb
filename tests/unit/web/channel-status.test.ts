import { expect, it } from 'vitest';
import type { Delivery } from '../../../server/contract/notification.ts';
import { channelStatus } from '../../../web/src/screens/settings/channels/channel-status.ts';

function delivery(id: number, channelId: string, status: Delivery['status'], tries: Array<[at: string, ok: boolean, detail: string | null]>): Delivery {
  return {
    id,
    channelId,
    alertId: null,
    reason: 'alert',
    severity: 'HIGH',
    title: 'HIGH: TANK EMPTY',
    status,
    attempts: tries.length,
    nextAttemptAt: status === 'pending' ? '2026-06-02T03:00:00.000Z' : null,
    lastError: tries.at(-1)?.[1] === false ? tries.at(-1)![2] : null,
    createdAt: tries[0]?.[0] ?? '2026-06-02T01:00:00.000Z',
    deliveredAt: status === 'delivered' ? tries.at(-1)![0] : null,
    tries: tries.map(([at, ok, detail]) => ({ at, ok, detail })),
  };
}

it("a channel's row tells its newest attempt, whichever delivery it belongs to, and counts what waits for a retry", () => {
  const log = [
    delivery(3, 'phone', 'pending', [['2026-06-02T02:00:00.000Z', false, 'ECONNREFUSED'], ['2026-06-02T02:00:30.000Z', false, 'HTTP 502']]),
    delivery(2, 'hook', 'delivered', [['2026-06-02T01:59:00.000Z', true, 'HTTP 200']]),
    delivery(1, 'phone', 'delivered', [['2026-06-02T01:00:00.000Z', false, 'timed out'], ['2026-06-02T01:30:00.000Z', true, 'HTTP 200']]),
    delivery(4, 'phone', 'pending', []),
  ];
  expect(channelStatus(log, 'phone')).toEqual({ state: 'failing', lastAt: '2026-06-02T02:00:30.000Z', detail: 'HTTP 502', retrying: 1 });
  expect(channelStatus(log, 'hook')).toEqual({ state: 'delivering', lastAt: '2026-06-02T01:59:00.000Z' });
  expect(channelStatus(log, 'mail')).toEqual({ state: 'unused' });
  // A retry that got through after the failures: delivering again.
  const recovered = [delivery(5, 'phone', 'delivered', [['2026-06-02T02:05:00.000Z', true, 'HTTP 200']]), ...log];
  expect(channelStatus(recovered, 'phone')).toMatchObject({ state: 'delivering', lastAt: '2026-06-02T02:05:00.000Z' });
});
