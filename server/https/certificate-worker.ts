// Worker thread: makes the local CA or issues a server certificate from it (x509.ts), and answers
// { answer: PemPair } or { error }. Started by tls-store.ts, so that the X.509 library never loads on the
// main thread: it is needed at the first start and when a certificate is renewed, and loaded it stays.
import { parentPort, workerData } from 'node:worker_threads';
import type { OneAnswer } from '../db/worker.ts';
import { createCertificateAuthority, issueServerCertificate, type PemPair } from './x509.ts';
import type { CertificateJob } from './certificate-job.ts';

const job = workerData as CertificateJob;

try {
  const pair = job.kind === 'ca' ? await createCertificateAuthority(job) : await issueServerCertificate(job);
  parentPort!.postMessage({ answer: pair } satisfies OneAnswer<PemPair>);
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message } satisfies OneAnswer<never>);
}
