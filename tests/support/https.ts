import { request } from 'node:https';
import type { LookupFunction } from 'node:net';

/** Resolves every name to the loopback: a LAN host name such as `greenhouse.test` reaches the test gateway. */
export const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if ((options as { all?: boolean }).all) (callback as unknown as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The server certificate's PEM-less facts as the TLS layer saw them. */
  peerSubjectAltName: string | undefined;
}

/**
 * One HTTPS request over a real TLS connection that trusts only `ca` (never the system's store, never
 * `rejectUnauthorized: false`): the certificate must be valid for the URL's host name.
 */
export function httpsRequest(
  url: string,
  options: { ca: string; method?: string; headers?: Record<string, string>; body?: string; servername?: string },
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', ca: options.ca, headers: options.headers, servername: options.servername ?? new URL(url).hostname, lookup: toLoopback, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const peer = (res.socket as import('node:tls').TLSSocket).getPeerCertificate?.();
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), peerSubjectAltName: peer?.subjectaltname }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
