import { describe, expect, it } from 'vitest';
import { CHANNEL_FAILING_AFTER_MS, ChannelHealth, type ChannelAttempt, type ChannelHealthChange } from '../../../../server/notifications/channel-health.ts';

const MINUTE_MS = 60_000;
const START_MS = Date.parse('2026-06-01T02:00:00Z');

function health() {
  const changes: ChannelHealthChange[] = [];
  const tracker = new ChannelHealth((change) => changes.push(change));
  const attempt = (minute: number, ok: boolean, over: Partial<ChannelAttempt> = {}) =>
    tracker.record({ channelId: 'phone', kind: 'ntfy', reason: 'alert', ok, detail: ok ? 'HTTP 200' : 'connect ECONNREFUSED 127.0.0.1:9', atMs: START_MS + minute * MINUTE_MS, ...over });
  return { tracker, changes, attempt };
}

describe('ChannelHealth', () => {
  it('reports a channel once every attempt has failed for five minutes, with the last error, and only once', () => {
    const { tracker, changes, attempt } = health();
    // The outbox's back-off: 0, 0.5, 1.5, 3.5 min (still a router's reboot), then 8.5 min.
    for (const minute of [0, 0.5, 1.5, 3.5]) attempt(minute, false);
    expect(changes).toEqual([]);
    expect(tracker.isFailing('phone')).toBe(false);
    attempt(8.5, false, { detail: 'HTTP 502' });
    expect(changes).toEqual([{ channelId: 'phone', kind: 'ntfy', failing: true, failingForMs: 8.5 * MINUTE_MS, detail: 'HTTP 502' }]);
    expect(tracker.isFailing('phone')).toBe(true);
    attempt(18.5, false);
    expect(changes).toHaveLength(1);
    expect(CHANNEL_FAILING_AFTER_MS).toBe(5 * MINUTE_MS);
  });

  it('a delivery ends the failure, and the next one starts its five minutes afresh', () => {
    const { tracker, changes, attempt } = health();
    attempt(0, true);
    expect(changes).toEqual([{ channelId: 'phone', kind: 'ntfy', failing: false, why: 'delivered' }]);
    attempt(1, false);
    attempt(5.5, false);
    attempt(6, true);
    // Failed for 4.5 minutes, then delivered: never reported, and the delivery tells nobody anything new.
    expect(changes.filter((c) => c.failing)).toEqual([]);
    attempt(10, false);
    attempt(14, false);
    expect(changes.filter((c) => c.failing)).toEqual([]);
    attempt(15, false);
    expect(changes.filter((c) => c.failing)).toHaveLength(1);
    attempt(16, true);
    expect(changes.at(-1)).toEqual({ channelId: 'phone', kind: 'ntfy', failing: false, why: 'delivered' });
    expect(tracker.isFailing('phone')).toBe(false);
  });

  it('a delivered channel is not announced at every delivery, only at its first since start', () => {
    const { changes, attempt } = health();
    attempt(0, true);
    attempt(1, true);
    attempt(2, true);
    expect(changes).toHaveLength(1);
  });

  it('a failed test neither starts nor extends a failure; a test that is delivered ends one', () => {
    const { tracker, changes, attempt } = health();
    attempt(0, false, { reason: 'test' });
    attempt(10, false, { reason: 'test' });
    expect(changes).toEqual([]);
    attempt(20, false);
    attempt(26, false);
    expect(tracker.isFailing('phone')).toBe(true);
    attempt(27, false, { reason: 'test' });
    expect(tracker.isFailing('phone')).toBe(true);
    attempt(28, true, { reason: 'test' });
    expect(tracker.isFailing('phone')).toBe(false);
    expect(changes.at(-1)).toMatchObject({ failing: false, why: 'delivered' });
  });

  it('channels are told apart', () => {
    const { tracker, changes, attempt } = health();
    attempt(0, false);
    attempt(0, true, { channelId: 'hook', kind: 'webhook' });
    attempt(6, false);
    expect(tracker.isFailing('phone')).toBe(true);
    expect(tracker.isFailing('hook')).toBe(false);
    expect(changes.filter((c) => c.failing).map((c) => c.channelId)).toEqual(['phone']);
  });

  it('an edit forgets the failures (not what was reported); a deletion ends it', () => {
    const { tracker, changes, attempt } = health();
    attempt(0, false);
    attempt(6, false);
    tracker.edited('phone');
    expect(tracker.isFailing('phone')).toBe(false);
    const reported = changes.length;
    // After the edit it has five minutes of its own before it is reported again.
    attempt(7, false);
    attempt(11, false);
    expect(changes).toHaveLength(reported);
    tracker.deleted('phone');
    expect(changes.at(-1)).toEqual({ channelId: 'phone', kind: null, failing: false, why: 'deleted' });
  });
});
