import { describe, expect, it } from 'vitest';
import { v8PlatformWorkers, v8PoolSize } from '../../../server/appliance/v8-helper-priority.ts';

describe('v8PoolSize', () => {
  it("is Node.js's default of four unless --v8-pool-size says otherwise, the command line after NODE_OPTIONS", () => {
    expect(v8PoolSize([])).toBe(4);
    expect(v8PoolSize(['--v8-pool-size=2'])).toBe(2);
    expect(v8PoolSize(['--v8-pool-size', '3'])).toBe(3);
    expect(v8PoolSize([], '--max-old-space-size=200 --v8-pool-size=6')).toBe(6);
    expect(v8PoolSize(['--v8-pool-size=1'], '--v8-pool-size=6')).toBe(1);
    expect(v8PoolSize(['--v8-pool-size=0'], '', 4)).toBe(3);
    expect(v8PoolSize(['--v8-pool-size=0'], '', 1)).toBe(1);
    expect(v8PoolSize(['--v8-pool-size=lots'])).toBe(4);
  });
});

describe('v8PlatformWorkers', () => {
  const layout = (wchans: string[]) => wchans.map((wchan, i) => ({ tid: 100 + i, wchan }));
  // main, the delayed-task scheduler, four platform workers, the inspector's signal thread, libuv's pool.
  const node20 = layout(['do_epoll_wait', 'do_epoll_wait', ...Array(9).fill('futex_do_wait')]);

  it('are the pool-size threads right after the scheduler, whatever order the threads are listed in', () => {
    expect(v8PlatformWorkers(100, node20, 4)).toEqual([102, 103, 104, 105]);
    expect(v8PlatformWorkers(100, [...node20].reverse(), 4)).toEqual([102, 103, 104, 105]);
    expect(v8PlatformWorkers(100, node20, 2)).toEqual([102, 103]);
  });

  it('are none when the layout does not start with the scheduler, or has too few threads: no guessing', () => {
    expect(v8PlatformWorkers(100, layout(['do_epoll_wait', 'futex_do_wait', 'futex_do_wait']), 4)).toEqual([]);
    expect(v8PlatformWorkers(100, layout(['do_epoll_wait', ...Array(10).fill('futex_do_wait')]), 4)).toEqual([]);
    expect(v8PlatformWorkers(100, layout(['do_epoll_wait', '0', ...Array(9).fill('futex_do_wait')]), 4)).toEqual([]);
  });
});
