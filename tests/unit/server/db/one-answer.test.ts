// oneAnswer (server/db/worker.ts): a worker that answers once gives its answer, or a rejection that says
// what failed, however the thread ends; never a promise that hangs.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { oneAnswer } from '../../../../server/db/worker.ts';

const worker = (source: string) => new Worker(`const { parentPort } = require('node:worker_threads');\n${source}`, { eval: true });

describe('oneAnswer', () => {
  it('resolves with what the worker answered', async () => {
    await expect(oneAnswer(worker(`parentPort.postMessage({ answer: { restarts: 2 } });`), 'backup')).resolves.toEqual({ restarts: 2 });
  });

  it('rejects with the error the worker reported, naming the job', async () => {
    await expect(oneAnswer(worker(`parentPort.postMessage({ error: 'disk full' });`), 'backup')).rejects.toThrow('backup failed: disk full');
  });

  it('rejects when the worker throws before answering', async () => {
    await expect(oneAnswer(worker(`throw new Error('no such module');`), 'issuing the server certificate')).rejects.toThrow('no such module');
  });

  it('rejects when the worker exits without answering', async () => {
    await expect(oneAnswer(worker(`process.exit(3);`), 'making the local CA')).rejects.toThrow('making the local CA worker exited with code 3');
  });
});
