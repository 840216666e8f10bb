import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../drivers/clock.ts';
import { SystemdNotifier, systemdNotifySender, watchdogIntervalMs, type NotifySender } from '../../../server/appliance/notify.ts';
import { EventBus } from '../../../server/events/bus.ts';

const silent = { warn: () => {}, error: () => {} };

function setup(watchdogMs: number | null = 30_000, send: NotifySender | null = null) {
  const sent: string[][] = [];
  const clock = new ManualClock();
  const bus = new EventBus(silent);
  const notifier = new SystemdNotifier({
    bus,
    clock,
    send: send ?? (async (fields) => void sent.push(fields)),
    watchdogMs,
    logger: silent,
  });
  const tick = () => bus.emit('samplerTicked', { at: new Date(clock.now()).toISOString(), durationMs: 12, failedSensors: [] });
  return { sent, clock, bus, notifier, tick, pings: () => sent.filter((f) => f.includes('WATCHDOG=1')).length };
}

describe('SystemdNotifier', () => {
  it('pings the watchdog only after a sampling tick, never from the passing of time alone', async () => {
    const { clock, notifier, tick, pings } = setup();
    notifier.start();
    clock.advance(120_000);
    expect(pings()).toBe(0);
    tick();
    expect(pings()).toBe(1);
  });

  it('pings at most every half watchdog period', () => {
    const { clock, notifier, tick, pings } = setup(30_000);
    notifier.start();
    tick();
    clock.advance(14_999);
    tick();
    expect(pings()).toBe(1);
    clock.advance(1);
    tick();
    expect(pings()).toBe(2);
    for (let i = 0; i < 10; i++) tick();
    expect(pings()).toBe(2);
  });

  it('sends READY=1 with a status, then STOPPING=1 and no more pings after shutdown began', async () => {
    const { sent, clock, notifier, tick, pings } = setup();
    notifier.start();
    await notifier.ready('Dashboard at http://127.0.0.1:8080');
    expect(sent[0]).toEqual(['READY=1', 'STATUS=Dashboard at http://127.0.0.1:8080']);
    await notifier.stopping();
    expect(sent.at(-1)).toContain('STOPPING=1');
    clock.advance(60_000);
    tick();
    expect(pings()).toBe(0);
  });

  it('sends no pings when systemd set no watchdog, and nothing at all outside systemd', async () => {
    const noWatchdog = setup(null);
    noWatchdog.notifier.start();
    noWatchdog.tick();
    expect(noWatchdog.pings()).toBe(0);

    const bus = new EventBus(silent);
    const outside = new SystemdNotifier({ bus, clock: new ManualClock(), send: systemdNotifySender({}), watchdogMs: 30_000, logger: silent });
    expect(outside.enabled).toBe(false);
    outside.start();
    bus.emit('samplerTicked', { at: new Date().toISOString(), durationMs: 1, failedSensors: [] });
    await outside.ready('x');
    await outside.stopping();
  });

  it('logs a failed notification instead of throwing', async () => {
    const warnings: string[] = [];
    const notifier = new SystemdNotifier({
      bus: new EventBus(silent),
      clock: new ManualClock(),
      send: async () => {
        throw new Error('no socket');
      },
      watchdogMs: null,
      logger: { warn: (_obj, msg) => warnings.push(msg) },
    });
    await expect(notifier.ready('x')).resolves.toBeUndefined();
    expect(warnings).toEqual(['sd_notify failed']);
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

// The real sender: `systemd-notify` delivering datagrams to a unix socket. Python binds the datagram
// socket (Node cannot), standing in for systemd's end.
const hasTools =
  spawnSync('systemd-notify', ['--version']).status === 0 && spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!hasTools)('systemdNotifySender over a real datagram socket', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers READY=1, STATUS= and WATCHDOG=1 to $NOTIFY_SOCKET', async () => {
    dir = mkdtempSync(join(tmpdir(), 'notify-'));
    const socketPath = join(dir, 'notify.sock');
    const receiver = spawn('python3', [
      '-c',
      `import socket,sys
s=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM); s.bind(sys.argv[1]); print("bound",flush=True)
while True: print(s.recv(4096).decode().replace("\\n","|"),flush=True)`,
      socketPath,
    ]);
    let output = '';
    const lines = (want: string) =>
      new Promise<void>((resolve) => {
        const check = () => output.includes(want) && resolve();
        receiver.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          check();
        });
        check();
      });
    try {
      await lines('bound');
      const send = systemdNotifySender({ NOTIFY_SOCKET: socketPath, PATH: process.env.PATH })!;
      await send(['READY=1', 'STATUS=Dashboard at http://127.0.0.1:8080']);
      await send(['WATCHDOG=1']);
      await lines('WATCHDOG=1');
      expect(output).toContain('READY=1|STATUS=Dashboard at http://127.0.0.1:8080');
    } finally {
      receiver.kill();
    }
  });
});
