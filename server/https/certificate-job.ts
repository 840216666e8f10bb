import { oneAnswer, startModuleWorker } from '../db/worker.ts';
import type { PemPair } from './x509.ts';

/** What certificate-worker.ts is asked for: the local CA, or a server certificate signed by it. */
export type CertificateJob =
  | { kind: 'ca'; commonName: string; nowMs: number }
  | { kind: 'server'; ca: PemPair; names: readonly string[]; nowMs: number };

/** Runs `job` on a worker thread of its own (certificate-worker.ts says why) and answers its PEM pair. */
export function issueOnWorker(job: CertificateJob): Promise<PemPair> {
  return oneAnswer(startModuleWorker(import.meta.url, 'certificate-worker', job), job.kind === 'ca' ? 'making the local CA' : 'issuing the server certificate');
}
