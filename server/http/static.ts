import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { refuseOverlongParam } from './framework-errors.ts';

/**
 * Serves the built dashboard. Any other GET that is not under /api or /ws gets index.html, so a deep
 * link such as /dashboard/sensors reloads into the app; unknown /api paths answer JSON 404.
 *
 * The build writes a Brotli and a gzip copy beside each text asset (scripts/compress-web.mjs):
 * `preCompressed` sends the best one the browser accepts, with Content-Encoding, and the original to
 * a client that accepts neither. Nothing is compressed per request: on a Pi core that is CPU taken
 * from sampling and control (docs/performance.md).
 */
export async function registerDashboard(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const hasBuild = webRoot !== null && existsSync(join(webRoot, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // One wildcard route that looks for the file when asked, not a route per file listed at start
      // (the build's 90 files were 180 routes and a directory walk on every start of a Pi core).
      wildcard: true,
      index: 'index.html',
      cacheControl: false,
      preCompressed: true,
      // Hashed asset names never change content; index.html must always be revalidated. The answer
      // depends on Accept-Encoding, so caches must key on it.
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/') || path === '/ws';
    if (!isApi && hasBuild && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    if (isApi && refuseOverlongParam(request, reply)) return reply;
    return reply.status(404).send({ success: false, message: `Route ${request.method} ${path} not found` });
  });
}
