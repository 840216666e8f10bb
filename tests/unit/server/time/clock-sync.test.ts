import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { ClockSync, DEFAULT_CLOCK_POLL_MS } from '../../../../server/time/clock-sync.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'clock-sync-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ClockSync', () => {
  it('check: not synchronised until systemd-timesyncd writes its marker, then says so once', () => {
    const clock = new ManualClock();
    const marker = join(dir, 'synchronized');
    let told = 0;
    const sync = new ClockSync({ mode: 'check', markerPath: marker, clock, monotonicMs: null, onSynchronised: () => told++ });
    sync.start();
    expect(sync.status()).toEqual({ synchronised: false, source: 'timesyncd', synchronisedAt: null, steps: 0, lastStep: null });
    clock.advance(DEFAULT_CLOCK_POLL_MS * 3);
    expect(sync.synchronised()).toBe(false);
    writeFileSync(marker, '');
    clock.advance(DEFAULT_CLOCK_POLL_MS);
    expect(sync.synchronised()).toBe(true);
    expect(sync.status().synchronisedAt).toBe(new Date(clock.now()).toISOString());
    clock.advance(DEFAULT_CLOCK_POLL_MS * 3);
    expect(told).toBe(1);
    sync.stop();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a marker present at start is synchronised from the first request; assume trusts the clock', () => {
    const marker = join(dir, 'synchronized');
    writeFileSync(marker, '');
    expect(new ClockSync({ mode: 'check', markerPath: marker, clock: new ManualClock(), monotonicMs: null }).synchronised()).toBe(true);
    const assumed = new ClockSync({ mode: 'assume', markerPath: join(dir, 'absent'), clock: new ManualClock(), monotonicMs: null });
    expect(assumed.status()).toMatchObject({ synchronised: true, source: 'assumed' });
  });

  it('tells a step of the wall clock from time passing by the monotonic clock, both ways', () => {
    const monotonic = new ManualClock();
    let offsetMs = 0;
    const wall = { now: () => monotonic.now() + offsetMs, setTimeout: monotonic.setTimeout.bind(monotonic), clearTimeout: monotonic.clearTimeout.bind(monotonic) };
    const steps: number[] = [];
    const sync = new ClockSync({ mode: 'assume', markerPath: join(dir, 'x'), clock: wall, monotonicMs: () => monotonic.now(), onStep: (ms) => steps.push(ms) });
    sync.start();
    monotonic.advance(DEFAULT_CLOCK_POLL_MS * 10);
    expect(steps).toEqual([]);
    offsetMs += 3 * 3_600_000;
    monotonic.advance(DEFAULT_CLOCK_POLL_MS);
    offsetMs -= 6 * 3_600_000;
    monotonic.advance(DEFAULT_CLOCK_POLL_MS);
    expect(steps).toEqual([3 * 3_600_000, -6 * 3_600_000]);
    expect(sync.status()).toMatchObject({ steps: 2, lastStep: { stepSeconds: -21600 } });
    sync.stop();
  });
});

describe('config clockSync', () => {
  it('defaults to the timesyncd marker and refuses an unknown mode, naming the key', async () => {
    const { loadConfig } = await import('../../../../server/config/load.ts');
    expect(loadConfig({}).clockSync).toEqual({ markerPath: '/run/systemd/timesync/synchronized' });
    expect(() => loadConfig({}, { clockSync: { mode: 'sometimes' as never, markerPath: '/x' } })).toThrow(/clockSync\.mode/);
  });
});
