// Issues X.509 certificates for the gateway's own CA (docs/https.md). Node's crypto parses certificates
// but cannot issue them; @peculiar/x509 builds them over WebCrypto. tsyringe, which it uses inside, needs
// the `reflect-metadata` polyfill loaded first. The gateway runs this module only on a worker thread
// (certificate-worker.ts): loaded on the main thread, the library and its polyfills stayed resident
// for good, about 4 MB of an idle gateway's RSS, for work done once a year or at a new address.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** ECDSA P-256 with SHA-256: accepted by Android, iOS, Chromium and Firefox, and cheap on a Pi. */
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** Apple's limit for TLS server certificates is 825 days; 397 also fits what browsers accept from public CAs. */
export const SERVER_CERT_DAYS = 397;
export const CA_DAYS = 3650;

export interface PemPair {
  certPem: string;
  keyPem: string;
}

/** A positive 128-bit serial number (RFC 5280 4.1.2.2: at most 20 octets, non-negative). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

async function exportKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
}

async function importKeyPem(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return (await webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign'])) as CryptoKey;
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** A CA that may sign server certificates only (path length 0), valid from a day back for clock skew. */
export async function createCertificateAuthority(options: { commonName: string; nowMs: number }): Promise<PemPair> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [options.commonName] }, { O: ['Greenhouse gateway'] }],
    notBefore: new Date(options.nowMs - DAY_MS),
    notAfter: new Date(options.nowMs + CA_DAYS * DAY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await exportKeyPem(keys.privateKey) };
}

/**
 * A server certificate for `names` (host names and IP addresses, each as a subjectAltName: browsers
 * ignore the common name), with the serverAuth usage Apple and Chromium require.
 */
export async function issueServerCertificate(options: { ca: PemPair; names: readonly string[]; nowMs: number }): Promise<PemPair> {
  if (options.names.length === 0) throw new Error('a server certificate needs at least one name');
  const caCert = new x509.X509Certificate(options.ca.certPem);
  const caKey = await importKeyPem(options.ca.keyPem);
  const keys = await generateKeys();
  const altNames = options.names.map((name) => (isIP(name) ? { type: 'ip' as const, value: name } : { type: 'dns' as const, value: name }));
  const commonName = options.names.find((name) => !isIP(name)) ?? options.names[0]!;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: [{ CN: [commonName] }],
    issuer: caCert.subject,
    notBefore: new Date(options.nowMs - DAY_MS),
    notAfter: new Date(options.nowMs + SERVER_CERT_DAYS * DAY_MS),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(altNames),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await exportKeyPem(keys.privateKey) };
}
