// What the gateway reads of a certificate at every start with HTTPS on (tls-store.ts), with Node's own
// parser: issuing one takes the X.509 library (x509.ts), which only a worker thread loads.
import { createHash, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

export interface CertificateFacts {
  /** DNS names and IP addresses of its subjectAltName. */
  names: string[];
  notAfterMs: number;
  /** SHA-256 of the DER, colon-separated hex as browsers and phones show it. */
  fingerprintSha256: string;
  /** base64 SHA-256 of its SubjectPublicKeyInfo (Chromium's --ignore-certificate-errors-spki-list, HPKP style). */
  spkiSha256: string;
}

/** What a PEM certificate says, read with Node's own parser. */
export function certificateFacts(certPem: string): CertificateFacts {
  const cert = new X509Certificate(certPem);
  const names = (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .map((entry) => /^(?:DNS|IP Address):(.+)$/.exec(entry)?.[1])
    .filter((name): name is string => name !== undefined)
    // Node writes IPv6 addresses in full (FD00:0:0:0:0:0:0:2); compare them in the short form the
    // interfaces list gives (fd00::2).
    .map((name) => (isIP(name) === 6 ? new URL(`http://[${name}]`).hostname.slice(1, -1) : name.toLowerCase()));
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return {
    names,
    notAfterMs: Date.parse(cert.validTo),
    fingerprintSha256: cert.fingerprint256,
    spkiSha256: createHash('sha256').update(spki).digest('base64'),
  };
}
