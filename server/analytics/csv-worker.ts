// Worker thread: streams the readings of one greenhouse in a time range as CSV chunks through its own
// read-only connection. Started by readingsCsvStream (readings-csv.ts); each 'more' from the parent
// gets one chunk back, so a slow client pauses the query instead of filling memory. A chunk leaves as
// a string, which the main thread hands to the socket as it is (readings-csv.ts says why not bytes).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { CSV_CHUNK_CHARS, CSV_COLUMNS, CSV_SOURCE_COLUMNS, createCsvLineWriter, type CsvRow } from './csv-format.ts';
import { workerPacer } from '../db/worker-pacing.ts';
import { runAsBackgroundThread } from '../db/worker-priority.ts';

// Behind the main thread's sampling, rules and requests on a Pi core.
runAsBackgroundThread();

const { dbPath, greenhouseId, fromMs, toMs } = workerData as { dbPath: string; greenhouseId: string; fromMs: number; toMs: number };

const connection = new Database(dbPath, { readonly: true, fileMustExist: true });
connection.pragma('busy_timeout = 5000');
const rows = connection
  .prepare(
    `SELECT ${CSV_SOURCE_COLUMNS.join(', ')}
     FROM readings WHERE greenhouse_id = ? AND taken_at >= ? AND taken_at <= ?
     ORDER BY taken_at, id`,
  )
  .raw()
  .iterate(greenhouseId, fromMs, toMs) as IterableIterator<CsvRow>;
let headerSent = false;
const step = workerPacer();
const csvLine = createCsvLineWriter();

function send(text: string, done: boolean): void {
  parentPort!.postMessage({ text, done });
}

parentPort!.on('message', () => {
  try {
    let chunk = headerSent ? '' : `${CSV_COLUMNS.join(',')}\n`;
    headerSent = true;
    while (chunk.length < CSV_CHUNK_CHARS) {
      const next = rows.next();
      if (next.done) {
        connection.close();
        send(chunk, true);
        return;
      }
      step();
      chunk += csvLine(next.value);
    }
    send(chunk, false);
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
