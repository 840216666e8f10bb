import type { FastifyInstance } from 'fastify';
import type { RealtimeHub } from './hub.ts';

/** `/ws`: tokens come in the first message or an Authorization header, never in the URL. */
export async function realtimeRoutes(app: FastifyInstance, options: { hub: RealtimeHub }): Promise<void> {
  app.get('/ws', { websocket: true }, (socket, request) => {
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : null;
    options.hub.accept(socket, bearer, request.ip);
  });
}
