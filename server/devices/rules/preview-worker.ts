// Worker thread: one rule preview (preview-job.ts) over the recorded history, through its own read-only
// connection. Started per preview by PreviewService (preview-service.ts), which terminates it when the
// client goes away; a week of 1 Hz readings is seconds of work on a Pi core that must not run on the
// event loop the sampler, the rules and the safety timers share.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { runPreviewJob, type PreviewJob } from './preview-job.ts';
import { RecordedHistory } from './recorded-history.ts';
import { workerPacer } from '../../db/worker-pacing.ts';
import { runAsBackgroundThread } from '../../db/worker-priority.ts';

// Behind the main thread's sampling, rules and requests on a Pi core.
runAsBackgroundThread();

const { dbPath, greenhouseId, job } = workerData as { dbPath: string; greenhouseId: string; job: PreviewJob };

try {
  const connection = new Database(dbPath, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  const preview = runPreviewJob(job, new RecordedHistory(connection, greenhouseId, workerPacer()));
  connection.close();
  parentPort!.postMessage({ preview });
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message });
}
