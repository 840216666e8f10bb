import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../common/clock.ts';
import {
  datagramNotifySender,
  loadUnixDgram,
  SystemdNotifier,
  watchdogIntervalMs,
  type LivenessCheck,
  type NotifySender,
} from '../../../server/appliance/notify.ts';
import { bindDatagramReceiver } from '../../support/notify-socket.ts';

const silent = { warn: () => {}, error: () => {} };

function setup(watchdogMs: number | null = 30_000, liveness: LivenessCheck = () => ({ alive: true }), send: NotifySender | null = null) {
  const sent: string[][] = [];
  const warnings: string[] = [];
  const clock = new ManualClock();
  const notifier = new SystemdNotifier({
    clock,
    send: send ?? (async (fields) => void sent.push(fields)),
    watchdogMs,
    liveness,
    logger: { warn: (_obj, msg) => warnings.push(msg) },
  });
  return { sent, warnings, clock, notifier, pings: () => sent.filter((f) => f.includes('WATCHDOG=1')).length };
}

describe('SystemdNotifier', () => {
  it('pings every half watchdog period from a timer, whatever the sampling interval', () => {
    const { clock, notifier, pings } = setup(30_000);
    notifier.start();
    expect(pings()).toBe(1);
    clock.advance(14_999);
    expect(pings()).toBe(1);
    clock.advance(1);
    expect(pings()).toBe(2);
    // An hour without a sampling tick (updateInterval 3600) is still an hour of pings.
    clock.advance(3_600_000);
    expect(pings()).toBe(2 + 240);
  });

  it('stops feeding the watchdog while the sampling loop is not alive, and says why once', () => {
    let alive = true;
    const { clock, notifier, pings, warnings } = setup(30_000, () => (alive ? { alive: true } : { alive: false, reason: 'the next sampling tick is 45 s overdue' }));
    notifier.start();
    alive = false;
    clock.advance(60_000);
    expect(pings()).toBe(1);
    expect(warnings).toEqual(['watchdog not fed: the sampling loop is not alive; systemd will restart the gateway']);
    alive = true;
    clock.advance(15_000);
    expect(pings()).toBe(2);
  });

  it('sends READY=1 with a status, then STOPPING=1 and no more pings after shutdown began', async () => {
    const { sent, clock, notifier, pings } = setup();
    await notifier.ready('Dashboard at http://127.0.0.1:8080');
    expect(sent[0]).toEqual(['READY=1', 'STATUS=Dashboard at http://127.0.0.1:8080']);
    notifier.start();
    await notifier.stopping();
    expect(sent.at(-1)).toContain('STOPPING=1');
    const before = pings();
    clock.advance(120_000);
    expect(pings()).toBe(before);
  });

  it('sends no pings when systemd set no watchdog, and nothing at all outside systemd', async () => {
    const noWatchdog = setup(null);
    noWatchdog.notifier.start();
    noWatchdog.clock.advance(60_000);
    expect(noWatchdog.pings()).toBe(0);

    const sender = await datagramNotifySender({}, silent, () => Promise.reject(new Error('must not load unix-dgram')));
    expect(sender).toBeNull();
    const outside = new SystemdNotifier({ clock: new ManualClock(), send: sender, watchdogMs: 30_000, liveness: () => ({ alive: true }), logger: silent });
    expect(outside.enabled).toBe(false);
    outside.start();
    await outside.ready('x');
    await outside.stopping();
  });

  it('logs a failed notification instead of throwing', async () => {
    const { notifier, warnings } = setup(null, undefined, async () => {
      throw new Error('no socket');
    });
    await expect(notifier.ready('x')).resolves.toBeUndefined();
    expect(warnings).toEqual(['sd_notify failed']);
  });

  it('refuses an abstract socket with a warning rather than writing to a wrong path', async () => {
    const warnings: string[] = [];
    const sender = await datagramNotifySender({ NOTIFY_SOCKET: '@/org/freedesktop/systemd1/notify' }, { warn: (_o, msg) => warnings.push(msg) });
    expect(sender).toBeNull();
    expect(warnings[0]).toContain('abstract notification sockets are not supported');
  });
});

describe('watchdogIntervalMs', () => {
  it('reads WATCHDOG_USEC and honours WATCHDOG_PID', () => {
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000' }, 10)).toBe(30_000);
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '10' }, 10)).toBe(30_000);
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '11' }, 10)).toBeNull();
    expect(watchdogIntervalMs({}, 10)).toBeNull();
    expect(watchdogIntervalMs({ WATCHDOG_USEC: 'x' }, 10)).toBeNull();
  });
});

// The real sender (unix-dgram, in this process, no child) against a real unix datagram socket bound
// the way systemd binds $NOTIFY_SOCKET.
describe('datagramNotifySender over a real datagram socket', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers READY=1, STATUS= and WATCHDOG=1 to $NOTIFY_SOCKET as one datagram each', async () => {
    dir = mkdtempSync(join(tmpdir(), 'notify-'));
    const receiver = await bindDatagramReceiver(join(dir, 'notify.sock'));
    try {
      const send = (await datagramNotifySender({ NOTIFY_SOCKET: receiver.path }, silent))!;
      await send(['READY=1', 'STATUS=Dashboard at http://127.0.0.1:8080']);
      await send(['WATCHDOG=1']);
      await receiver.waitFor((messages) => messages.length >= 2);
      expect(receiver.messages).toEqual(['READY=1\nSTATUS=Dashboard at http://127.0.0.1:8080\n', 'WATCHDOG=1\n']);
    } finally {
      receiver.close();
    }
  });

  it('rejects (and never blocks) when nobody listens on the socket', async () => {
    dir = mkdtempSync(join(tmpdir(), 'notify-'));
    const send = (await datagramNotifySender({ NOTIFY_SOCKET: join(dir, 'nobody.sock') }, silent, loadUnixDgram))!;
    await expect(send(['READY=1'])).rejects.toThrow(/send/);
  });
});
