import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built dashboard. Any other GET that is not under /api or /ws gets index.html, so a deep
 * link such as /dashboard/sensors reloads into the app; unknown /api paths answer JSON 404.
 */
export async function registerDashboard(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const hasBuild = webRoot !== null && existsSync(join(webRoot, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Hashed asset names never change content; index.html must always be revalidated.
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/') || path === '/ws';
    if (!isApi && hasBuild && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ success: false, message: `Route ${request.method} ${path} not found` });
  });
}
