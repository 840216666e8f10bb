import Type, { type Static } from 'typebox';
import { IsoTimestamp } from './common.ts';

/**
 * GET /api/https (docs/https.md): whether the gateway serves HTTPS, at which addresses, and the CA a
 * phone must trust for it (null when the grower provides the certificate, or HTTPS is off).
 */
export const HttpsInfo = Type.Object({
  enabled: Type.Boolean(),
  port: Type.Union([Type.Integer(), Type.Null()]),
  source: Type.Union([Type.Literal('local-ca'), Type.Literal('provided'), Type.Null()]),
  /** https:// addresses the certificate covers, host names first. */
  urls: Type.Array(Type.String()),
  certificateExpiresAt: Type.Union([IsoTimestamp, Type.Null()]),
  ca: Type.Union([
    Type.Object({
      /** SHA-256 fingerprint as phones show it (AA:BB:...), to check the download before trusting it. */
      fingerprintSha256: Type.String(),
      expiresAt: IsoTimestamp,
      /** Where to download it: GET, no token needed (a phone fetches it before it can sign in safely). */
      downloadPath: Type.String(),
    }),
    Type.Null(),
  ]),
});
export type HttpsInfo = Static<typeof HttpsInfo>;
