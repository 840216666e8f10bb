import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireRole } from '../auth/guard.ts';
import { ok } from '../http/reply.ts';
import type { ChannelService } from './channel-service.ts';
import {
  ChannelListReply,
  ChannelParams,
  ChannelReply,
  CreateChannelBody,
  DeletedReply,
  EmptyBody,
  failures,
  LogQuery,
  LogReply,
  TestReply,
  UpdateChannelBody,
} from './schemas.ts';

/** /api/notifications/channels and /log: admins only (a channel decides where alerts and secrets go). */
export async function channelRoutes(fastify: FastifyInstance, options: { channels: ChannelService }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { channels } = options;
  app.addHook('preValidation', requireRole('admin'));

  app.get('/channels', { schema: { response: { 200: ChannelListReply, ...failures } } }, async () => ok(channels.list()));

  app.post('/channels', { schema: { body: CreateChannelBody, response: { 201: ChannelReply, ...failures } } }, async (request, reply) => {
    const { channelId, ...input } = request.body;
    return reply.status(201).send(ok(channels.create(channelId, input), 'Channel created'));
  });

  app.put('/channels/:id', { schema: { params: ChannelParams, body: UpdateChannelBody, response: { 200: ChannelReply, ...failures } } }, async (request) =>
    ok(channels.update(request.params.id, request.body), 'Channel updated'),
  );

  app.delete('/channels/:id', { schema: { params: ChannelParams, response: { 200: DeletedReply, ...failures } } }, async (request) => {
    channels.delete(request.params.id);
    return { success: true as const, message: 'Channel deleted' };
  });

  app.post(
    '/channels/:id/test',
    {
      schema: { params: ChannelParams, body: EmptyBody, response: { 200: TestReply, ...failures } },
      preValidation: async (request) => void (request.body ??= {}),
    },
    async (request) => {
      const result = await channels.test(request.params.id);
      return ok(result, result.delivered ? 'Test notification delivered' : `Test notification failed: ${result.detail ?? 'no answer'}`);
    },
  );

  app.get('/log', { schema: { querystring: LogQuery, response: { 200: LogReply, ...failures } } }, async (request) =>
    ok(channels.log({ limit: request.query.limit ?? 100, channelId: request.query.channelId })),
  );
}
