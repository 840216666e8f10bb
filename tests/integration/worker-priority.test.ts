// Heavy-read workers (rule previews, CSV export, backups) run at background priority from their first
// instruction, their module loading included (server/db/worker.ts): on a Pi core the main thread keeps
// the CPU while they start. Their young generation is bounded, whatever the machine's memory.
import { readdirSync, readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE } from '../../server/db/worker-priority.ts';
import { BACKGROUND_YOUNG_GENERATION_MB, startModuleWorker } from '../../server/db/worker.ts';

describe('startModuleWorker', () => {
  it('lowers the thread to background priority before the worker module is loaded, and bounds its young generation', async () => {
    const mainNice = getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()));
    expect(mainNice).toBeLessThan(BACKGROUND_NICE);
    const threadsBefore = new Set(readdirSync('/proc/self/task').map(Number));
    const worker = startModuleWorker(new URL('../support/gateway.ts', import.meta.url).href, 'priority-probe-worker', {});
    // Already lowered as the constructor returns, before the thread has made its isolate and could run
    // a line of its own: its Node.js bootstrap does not run at the main thread's priority either.
    const started = readdirSync('/proc/self/task').map(Number).filter((tid) => !threadsBefore.has(tid));
    expect(started).toHaveLength(1);
    expect(getPriority(started[0]!)).toBe(BACKGROUND_NICE);
    try {
      const answer = await new Promise<{ nice: number; youngGenerationMb: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(answer.nice).toBe(BACKGROUND_NICE);
      expect(answer.youngGenerationMb).toBe(BACKGROUND_YOUNG_GENERATION_MB);
    } finally {
      await worker.terminate();
    }
    // The main thread keeps its own priority.
    expect(getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()))).toBe(mainNice);
  });
});
