// The gateway process lowers V8's helper threads (the platform workers that collect garbage for every
// thread) to background priority and leaves the main thread and libuv's pool, where sensor reads run,
// at their own (server/appliance/v8-helper-priority.ts). Read from /proc of the real compiled process.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../../scripts/build-server.mjs';
import { BACKGROUND_NICE } from '../../server/db/worker-priority.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

/** Each thread of `pid` in creation order: its nice value and where it sleeps. */
function threadsOf(pid: number): Array<{ tid: number; nice: number; wchan: string }> {
  return readdirSync(`/proc/${pid}/task`)
    .map(Number)
    .sort((a, b) => a - b)
    .map((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
      return { tid, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]), wchan: readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'latin1') };
    });
}

describe.runIf(process.platform === 'linux')("the gateway process's thread priorities", () => {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-helper-priority-'));
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const server = await startServerProcess({ GREENHOUSE_DATA_DIR: join(dir, `data-${servers.length}`), GREENHOUSE_HARDWARE: 'simulator', ...env }, 60_000, [SERVER_ENTRY]);
    servers.push(server);
    return threadsOf(server.child.pid!);
  };
  beforeAll(async () => {
    await buildServerIfStale();
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("puts V8's four platform workers, right after the delayed-task scheduler, at background priority and nothing else", async () => {
    const [main, scheduler, ...rest] = await start();
    expect(main!.nice).toBe(0);
    expect(scheduler!.wchan).toContain('epoll');
    expect(scheduler!.nice).toBe(0);
    expect(rest.slice(0, 4).map((thread) => thread.nice)).toEqual(Array(4).fill(BACKGROUND_NICE));
    // The inspector's signal thread and libuv's pool, at least four more, keep the process's priority.
    expect(rest.slice(4).length).toBeGreaterThanOrEqual(4);
    expect(rest.slice(4).every((thread) => thread.nice === 0)).toBe(true);
  });

  it('follows --v8-pool-size', async () => {
    const [, , ...rest] = await start({ NODE_OPTIONS: '--v8-pool-size=2' });
    expect(rest.map((thread) => thread.nice).filter((nice) => nice === BACKGROUND_NICE)).toHaveLength(2);
    expect(rest.slice(0, 2).every((thread) => thread.nice === BACKGROUND_NICE)).toBe(true);
  });
});
