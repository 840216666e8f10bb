import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireWriter } from '../auth/guard.ts';
import { MANUAL_RESOLUTION } from '../contract/alert.ts';
import { GreenhouseParams } from '../contract/common.ts';
import { invalid } from '../domain/errors.ts';
import { ok } from '../http/reply.ts';
import type { AlertService } from './alert-service.ts';
import { alertsToCsv } from './csv.ts';
import type { EmailNotifier } from './email-notifier.ts';
import {
  AlertIdParams,
  AlertListReply,
  AlertReply,
  AcknowledgeBody,
  CreateBody,
  DeletedReply,
  ExportQuery,
  failures,
  ListQuery,
  NotificationStatusReply,
  ResolveBody,
  StatsReply,
} from './schemas.ts';

/** The export is not paged: a year of alerts is still a small file. */
const EXPORT_MAX_ROWS = 100_000;

/** /api/alerts: read by everyone signed in; created, resolved and deleted by operators and admins. */
export async function alertRoutes(fastify: FastifyInstance, options: { alerts: AlertService }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { alerts } = options;
  const params = GreenhouseParams;

  app.get('/active/:greenhouseId', { schema: { params, response: { 200: AlertListReply, ...failures } } }, async () =>
    ok(alerts.list({ status: 'active', limit: EXPORT_MAX_ROWS })),
  );

  app.get('/stats/:greenhouseId', { schema: { params, response: { 200: StatsReply, ...failures } } }, async () => {
    const stats = alerts.stats();
    return { success: true as const, data: stats, stats };
  });

  app.get(
    '/export/:greenhouseId',
    { schema: { params, querystring: ExportQuery, response: { 200: Type.String(), ...failures } } },
    async (request, reply) => {
      const { greenhouseId } = request.params;
      const rows = alerts.list({ ...request.query, limit: EXPORT_MAX_ROWS });
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="alerts-${greenhouseId}-${day}.csv"`)
        .header('cache-control', 'no-store')
        // The byte-order mark makes spreadsheet programs read the file as UTF-8 (°C, accents).
        .send('\uFEFF' + alertsToCsv(rows));
    },
  );

  app.get('/:greenhouseId', { schema: { params, querystring: ListQuery, response: { 200: AlertListReply, ...failures } } }, async (request) =>
    ok(alerts.list({ ...request.query, limit: request.query.limit ?? 500 })),
  );

  app.post(
    '/:greenhouseId',
    { schema: { params, body: CreateBody, response: { 201: AlertReply, ...failures } }, preValidation: requireWriter() },
    async (request, reply) => {
      const { alertType, severity, message, deviceId } = request.body;
      if (message.trim() === '') throw invalid('message must not be blank', 'message');
      const alert = alerts.create({ alertType, severity, message: message.trim(), deviceId: deviceId?.trim() || null });
      return reply.status(201).send(ok(alert, 'Alert created'));
    },
  );

  app.put(
    '/:id/resolve',
    {
      schema: { params: AlertIdParams, body: ResolveBody, response: { 200: AlertReply, ...failures } },
      // The body is optional: a PUT without one resolves with the default action text.
      preValidation: [requireWriter(), async (request) => void (request.body ??= {})],
    },
    async (request) => {
      const actionTaken = request.body?.actionTaken?.trim() || MANUAL_RESOLUTION;
      return ok(alerts.resolve(Number(request.params.id), actionTaken), 'Alert resolved successfully');
    },
  );

  app.put(
    '/:id/acknowledge',
    {
      schema: { params: AlertIdParams, body: AcknowledgeBody, response: { 200: AlertReply, ...failures } },
      // No body needed: the dashboard's button and the link of a notification send none.
      preValidation: [requireWriter(), async (request) => void (request.body ??= {})],
    },
    async (request) => ok(alerts.acknowledge(Number(request.params.id), request.account!.username), 'Alert acknowledged'),
  );

  app.delete(
    '/:id',
    { schema: { params: AlertIdParams, response: { 200: DeletedReply, ...failures } }, preValidation: requireWriter() },
    async (request) => {
      alerts.delete(Number(request.params.id));
      return { success: true as const, message: 'Alert deleted successfully' };
    },
  );
}

/** /api/notifications: whether email can be sent at all (the Settings screen explains when it cannot). */
export async function notificationRoutes(fastify: FastifyInstance, options: { notifier: EmailNotifier }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/status', { schema: { response: { 200: NotificationStatusReply, ...failures } } }, async () =>
    ok({ emailConfigured: options.notifier.configured }),
  );
}
