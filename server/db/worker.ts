import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BACKGROUND_NICE, startBelowMainThread } from './worker-priority.ts';

/**
 * What a worker thread runs before anything else, its module graph included: the thread lowers its own
 * priority (worker-priority.ts says why). A worker that loaded its modules first spent that start-up (a
 * few hundred ms of parsing and compiling on a Pi core) at the main thread's priority, and two previews
 * starting at once then took the main thread's share of the core. CommonJS `require` is what an eval
 * worker has before any import. The thread that starts the worker lowers it earlier still, before its
 * isolate is made (startBelowMainThread); this is for when it could not tell the new thread apart.
 */
const LOWER_PRIORITY_FIRST = `try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isSafeInteger(tid) && tid > 0) require('node:os').setPriority(tid, ${BACKGROUND_NICE});
} catch {}`;

/**
 * A background worker's young generation, in MB (two semi-spaces and the space for large new objects).
 * V8's own limit follows the machine's memory, and the CSV export, which makes a string per row, grew
 * its semi-spaces to 16 MB: 42 MB of heap for a stream that keeps a 32 kB chunk. Measured with
 * bench/pi-core.bench.ts at full speed (a week at 1 Hz, four runs): the gateway's peak RSS during a
 * 168 h export went from 167-171 to 139-141 MB, beside two 168 h previews from 155-161 to 152-153 MB,
 * with the same wall times. Half of it (3 MB) gave no smaller peak, and the one export measured with it
 * took 18.5 s instead of 10.3-12.9 s.
 */
export const BACKGROUND_YOUNG_GENERATION_MB = 6;

const BACKGROUND_HEAP_LIMITS = { maxYoungGenerationSizeMb: BACKGROUND_YOUNG_GENERATION_MB };

/**
 * Starts `name` (a module beside `fromUrl`, same extension) on a worker thread at background priority,
 * for work that reads the whole database (rule previews, raw CSV export, backups) with its own
 * better-sqlite3 connection while the main thread keeps sampling and serving, or that needs a library the
 * main thread should not keep loaded (issuing a certificate). From TypeScript sources
 * (development, tests) the worker gets tsx's loader; the compiled build imports the .js sibling with
 * plain node. Its young generation is bounded (BACKGROUND_YOUNG_GENERATION_MB), so that its memory
 * follows what it holds.
 */
export function startModuleWorker(fromUrl: string, name: string, workerData: unknown): Worker {
  const extension = extname(fileURLToPath(fromUrl));
  const url = new URL(`./${name}${extension}`, fromUrl);
  // Node 20 does not apply an --import loader to a worker's own entry module: from sources, register tsx first.
  const entry = extension === '.ts' ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })` : `import(${JSON.stringify(url.href)});`;
  return startBelowMainThread(() => new Worker(`${LOWER_PRIORITY_FIRST}\n${entry}`, { eval: true, workerData, resourceLimits: BACKGROUND_HEAP_LIMITS }));
}

/** What a worker that answers once posts: its result, or why it has none. */
export type OneAnswer<T> = { answer: T } | { error: string };

/**
 * The one answer of a worker started with startModuleWorker (a backup, a certificate): its first message,
 * rejected when that is an error, when the thread throws, or when it exits without answering.
 */
export function oneAnswer<T>(worker: Worker, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    let answered = false;
    worker.once('message', (message: OneAnswer<T>) => {
      answered = true;
      if ('answer' in message) resolve(message.answer);
      else reject(new Error(`${what} failed: ${message.error}`));
    });
    worker.once('error', (err) => {
      answered = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`${what} worker exited with code ${code}`));
    });
  });
}
