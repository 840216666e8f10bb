import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { certificateFacts, type CertificateFacts } from './certificate-facts.ts';
import { issueOnWorker } from './certificate-job.ts';
import type { PemPair } from './x509.ts';

/** A server certificate is renewed this long before it expires (checked at start and every hour). */
export const RENEW_BEFORE_MS = 30 * 86_400_000;

export interface TlsMaterial {
  keyPem: string;
  certPem: string;
  server: CertificateFacts;
  /** The local CA's certificate (what phones install), or null when the grower provides the certificate. */
  ca: { certPem: string; facts: CertificateFacts } | null;
  source: 'local-ca' | 'provided';
}

const FILES = { caKey: 'ca.key', caCert: 'ca.crt', serverKey: 'server.key', serverCert: 'server.crt' } as const;

/** Writes a file whole (a temp file renamed over it), keys with mode 0600 like the JWT secret. */
function writeAtomically(path: string, content: string, mode: number): void {
  const temp = `${path}.tmp`;
  writeFileSync(temp, content, { mode });
  chmodSync(temp, mode);
  renameSync(temp, path);
}

function readPair(dir: string, cert: string, key: string): PemPair | null {
  const certPath = join(dir, cert);
  const keyPath = join(dir, key);
  if (!existsSync(certPath) || !existsSync(keyPath)) return null;
  return { certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
}

/** Whether the stored server certificate still serves: same CA, every name, not about to expire. */
function stillGood(server: PemPair, ca: PemPair, names: readonly string[], nowMs: number): boolean {
  try {
    const cert = new X509Certificate(server.certPem);
    if (!cert.verify(new X509Certificate(ca.certPem).publicKey)) return false;
    const facts = certificateFacts(server.certPem);
    return facts.notAfterMs - nowMs > RENEW_BEFORE_MS && names.every((name) => facts.names.includes(name));
  } catch {
    return false;
  }
}

/**
 * The gateway's own certificate from its local CA in `dir` (`<dataDir>/tls`, mode 0700): the CA is made
 * once and kept (phones trust it); the server certificate is issued again when a name is missing (a new
 * DHCP address, a name added to config) or it is within RENEW_BEFORE_MS of expiry.
 */
export async function ensureLocalCertificate(options: { dir: string; names: readonly string[]; nowMs: number }): Promise<TlsMaterial & { issued: boolean }> {
  const { dir, names, nowMs } = options;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  let ca = readPair(dir, FILES.caCert, FILES.caKey);
  if (!ca) {
    ca = await issueOnWorker({ kind: 'ca', commonName: `Greenhouse gateway ${hostname()} local CA`, nowMs });
    writeAtomically(join(dir, FILES.caKey), ca.keyPem, 0o600);
    writeAtomically(join(dir, FILES.caCert), ca.certPem, 0o644);
  }
  let server = readPair(dir, FILES.serverCert, FILES.serverKey);
  let issued = false;
  if (!server || !stillGood(server, ca, names, nowMs)) {
    server = await issueOnWorker({ kind: 'server', ca, names, nowMs });
    writeAtomically(join(dir, FILES.serverKey), server.keyPem, 0o600);
    writeAtomically(join(dir, FILES.serverCert), server.certPem, 0o644);
    issued = true;
  }
  return {
    keyPem: server.keyPem,
    certPem: server.certPem,
    server: certificateFacts(server.certPem),
    ca: { certPem: ca.certPem, facts: certificateFacts(ca.certPem) },
    source: 'local-ca',
    issued,
  };
}

/** The grower's own certificate and key (config https.certFile/keyFile), served as they are. */
export function readProvidedCertificate(options: { certFile: string; keyFile: string }): TlsMaterial {
  const certPem = readFileSync(options.certFile, 'utf8');
  const keyPem = readFileSync(options.keyFile, 'utf8');
  return { keyPem, certPem, server: certificateFacts(certPem), ca: null, source: 'provided' };
}
