import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../common/clock.ts';
import { runAppliance, type ProcessLike } from '../../../server/appliance/lifecycle.ts';
import { SystemdNotifier } from '../../../server/appliance/notify.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

function setup(stop: () => Promise<void> = async () => {}) {
  const journal: string[] = [];
  const clock = new ManualClock();
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const proc: ProcessLike & EventEmitter = Object.assign(emitter, { exit: (code: number) => void exits.push(code) });
  const notifier = new SystemdNotifier({
    clock,
    send: async (fields) => void journal.push(fields.join(' ')),
    watchdogMs: 30_000,
    liveness: () => ({ alive: true }),
    logger: silent,
  });
  const gateway = {
    start: async () => void journal.push('gateway listening'),
    stop: async () => {
      journal.push('gateway stop begins');
      await stop();
      journal.push('gateway stopped');
    },
  };
  const makeOutputsSafe = async () => void journal.push('outputs safe');
  const run = () =>
    runAppliance({ gateway, notifier, process: proc, clock, logger: silent, makeOutputsSafe, readyStatus: () => 'ready', forceExitAfterMs: 10_000 });
  return { journal, clock, proc, exits, run };
}

describe('runAppliance', () => {
  it('says READY=1 only after the gateway listens', async () => {
    const { journal, run } = setup();
    await run();
    expect(journal).toEqual(['gateway listening', 'READY=1 STATUS=ready', 'WATCHDOG=1']);
  });

  it('on SIGTERM: outputs safe before anything else, then STOPPING=1, the gateway stops, exit 0', async () => {
    const { journal, proc, exits, run } = setup();
    const { shutdown } = await run();
    proc.emit('SIGTERM');
    await shutdown('SIGTERM'); // the same, already running stop
    expect(journal.slice(3)).toEqual([
      'outputs safe',
      'STOPPING=1 STATUS=Stopping: outputs to safe state',
      'gateway stop begins',
      'gateway stopped',
    ]);
    expect(exits).toEqual([0]);
  });

  it('makes the outputs safe even when sd_notify never returns', async () => {
    const { journal, proc, exits, clock } = setup();
    const emitter = proc;
    const hanging = new SystemdNotifier({ clock, send: () => new Promise(() => {}), watchdogMs: null, liveness: () => ({ alive: true }), logger: silent });
    const gateway = { start: async () => {}, stop: async () => void journal.push('gateway stopped') };
    const started = runAppliance({
      gateway, notifier: hanging, process: emitter, clock, logger: silent,
      makeOutputsSafe: async () => void journal.push('outputs safe'), readyStatus: () => 'ready',
    });
    // READY=1 never returns either: the signal handlers are in place before it.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    emitter.emit('SIGTERM');
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(journal).toEqual(['outputs safe', 'gateway stopped']);
    expect(exits).toEqual([0]);
    void started;
  });

  it('stops once when SIGINT follows SIGTERM', async () => {
    const { journal, proc, exits, run } = setup();
    const { shutdown } = await run();
    proc.emit('SIGINT');
    proc.emit('SIGTERM');
    await shutdown('SIGINT');
    expect(journal.filter((line) => line === 'gateway stop begins')).toHaveLength(1);
    expect(exits).toEqual([0]);
  });

  it('forces the exit at the deadline when the stop hangs, with the outputs already safe', async () => {
    const { journal, proc, exits, clock, run } = setup(() => new Promise(() => {}));
    await run();
    proc.emit('SIGTERM');
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(journal).toContain('outputs safe');
    clock.advance(9_999);
    expect(exits).toEqual([]);
    clock.advance(1);
    expect(exits).toEqual([1]);
  });

  it('exits 1 when the stop fails', async () => {
    const { exits, run } = setup(async () => {
      throw new Error('disk gone');
    });
    const { shutdown } = await run();
    await shutdown('SIGTERM');
    expect(exits).toEqual([1]);
  });

  it('keeps exactly one listener per signal after re-registering them', async () => {
    const { proc, run } = setup();
    await run();
    expect(proc.listenerCount('SIGTERM')).toBe(1);
    expect(proc.listenerCount('SIGINT')).toBe(1);
  });
});
