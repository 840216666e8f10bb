import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { Envelope, FailureEnvelope } from '../contract/common.ts';
import { PushStatus, PushSubscribeBody, PushSubscriptionView, PushTestResult, PushUnsubscribeBody } from '../contract/push.ts';
import { invalid, notFound } from '../domain/errors.ts';
import { ok } from '../http/reply.ts';
import type { AlertPusher } from './alert-pusher.ts';
import { checkEndpoint } from './endpoint-hosts.ts';
import { pushKeysProblem } from './subscription-keys.ts';
import { toView, type PushSubscriptionsRepo } from './subscriptions-repo.ts';

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope };

export interface PushRoutesOptions {
  repo: PushSubscriptionsRepo;
  pusher: AlertPusher;
  publicKey: string;
  endpointHosts: readonly string[];
}

/** /api/push: each signed-in account manages its own browsers' subscriptions (viewers included: they read alerts). */
export async function pushRoutes(fastify: FastifyInstance, options: PushRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { repo, pusher } = options;

  app.get('/push', { schema: { response: { 200: Envelope(PushStatus), ...failures } } }, async (request) =>
    ok({ publicKey: options.publicKey, subscriptions: repo.forUser(request.account!.id).map(toView) }),
  );

  app.post('/push/subscriptions', { schema: { body: PushSubscribeBody, response: { 201: Envelope(PushSubscriptionView), ...failures } } }, async (request, reply) => {
    const { endpoint, keys, minSeverity } = request.body;
    checkEndpoint(endpoint, options.endpointHosts);
    const badKeys = pushKeysProblem(keys);
    if (badKeys) throw invalid(badKeys.message, badKeys.field);
    const row = repo.upsert({ userId: request.account!.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, minSeverity });
    return reply.status(201).send(ok(toView(row), 'Alerts will be pushed to this browser'));
  });

  app.delete('/push/subscriptions', { schema: { body: PushUnsubscribeBody, response: { 200: Envelope(Type.Null()), ...failures } } }, async (request) => {
    if (!repo.removeOwn(request.account!.id, request.body.endpoint)) throw notFound('This browser has no push subscription on your account');
    return ok(null, 'Alerts are no longer pushed to this browser');
  });

  app.post('/push/test', { schema: { response: { 200: Envelope(PushTestResult), ...failures } } }, async (request) => {
    const rows = repo.forUser(request.account!.id);
    if (rows.length === 0) throw notFound('No browser of yours is subscribed: turn on alerts on this device first');
    return ok(await pusher.pushTest(rows));
  });
}
