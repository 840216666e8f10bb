import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../db/worker.ts';

type WorkerAnswer = { text: string; done: boolean } | { error: string };

/**
 * The readings of one greenhouse in [fromMs, toMs] as CSV, produced as the consumer reads. The raw rows
 * are read and formatted on a worker thread (csv-worker.ts) through its own read-only connection: a
 * week of 1 Hz data is 2.4 M rows, seconds of work that must not hold the event loop the sampler, the
 * rules and the safety timers run on. One chunk is asked for per `read()`, so a week is never in memory
 * at once and a slow client simply pauses the query; WAL lets the worker read a consistent snapshot
 * while the sampler keeps writing.
 *
 * Chunks reach the main thread as strings and leave as strings (an object-mode stream: no Buffer made of
 * them), which the socket writes straight from the string. Bytes from the worker would be ArrayBuffers
 * the main thread's V8 counts as external memory: a week's 115 MB of them set off a full mark-compact of
 * the whole heap about every second of the export, with incremental marking steps of up to 14 ms of the
 * main thread at full speed (docs/performance.md, "What the export's bytes cost the event loop").
 */
export function readingsCsvStream(dbPath: string, greenhouseId: string, fromMs: number, toMs: number): Readable {
  let worker: Worker | null = null;
  let finished = false;

  const stop = () => {
    const running = worker;
    worker = null;
    void running?.terminate();
  };

  const stream = new Readable({
    objectMode: true,
    // One chunk asked for at a time: object mode counts chunks, not bytes (the default would be 16).
    highWaterMark: 1,
    read() {
      if (!worker) {
        worker = startModuleWorker(import.meta.url, 'csv-worker', { dbPath, greenhouseId, fromMs, toMs });
        worker.on('message', (answer: WorkerAnswer) => {
          if ('error' in answer) {
            stream.destroy(new Error(`CSV export failed: ${answer.error}`));
            return;
          }
          if (answer.text.length > 0) stream.push(answer.text);
          if (answer.done) {
            finished = true;
            stop();
            stream.push(null);
          }
        });
        worker.on('error', (err) => stream.destroy(err));
        worker.on('exit', (code) => {
          if (!finished && !stream.destroyed) stream.destroy(new Error(`CSV export worker exited with code ${code}`));
        });
      }
      worker.postMessage('more');
    },
    destroy(err, callback) {
      stop();
      callback(err);
    },
  });
  return stream;
}
