import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { Envelope, FailureEnvelope } from '../contract/common.ts';
import { HttpsInfo } from '../contract/https.ts';
import { notFound } from '../domain/errors.ts';
import { ok } from '../http/reply.ts';

export const CA_DOWNLOAD_PATH = '/api/https/ca.crt';

export interface HttpsRoutesOptions {
  info: () => HttpsInfo;
  caCertPem: () => string | null;
}

/**
 * The local CA's certificate, public: it is what a phone installs before it can open the dashboard over
 * HTTPS, and a certificate holds no secret. `application/x-x509-ca-cert` is what makes Android and iOS
 * offer to install it rather than show it as text.
 */
export async function httpsPublicRoutes(fastify: FastifyInstance, options: HttpsRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/https/ca.crt', { schema: { response: { 200: Type.String(), 404: FailureEnvelope } } }, async (_request, reply) => {
    const pem = options.caCertPem();
    if (pem === null) throw notFound('This gateway has no local CA: HTTPS is off, or it serves a certificate you provided');
    return reply
      .header('content-type', 'application/x-x509-ca-cert')
      .header('content-disposition', 'attachment; filename="greenhouse-gateway-ca.crt"')
      .send(pem);
  });
}

/** GET /api/https: what the Settings screen shows and links to, for anyone signed in. */
export async function httpsRoutes(fastify: FastifyInstance, options: HttpsRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/https', { schema: { response: { 200: Envelope(HttpsInfo), 401: FailureEnvelope, 403: FailureEnvelope } } }, async () => ok(options.info()));
}
