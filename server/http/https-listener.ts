import { createServer, type Server } from 'node:https';
import type { FastifyInstance } from 'fastify';
import { capConnectionsPerAddress } from './connections-per-address.ts';

export interface HttpsListenerOptions {
  app: FastifyInstance;
  keyPem: string;
  certPem: string;
  limits: { headersTimeoutMs: number; keepAliveTimeoutMs: number; connectionsTotal: number; connectionsPerAddress: number };
}

/**
 * A second listener for the same Fastify app (one set of routes, hooks, guards and one websocket hub):
 * requests go to `app.routing`, Fastify's own request handler, and websocket upgrades are handed to the
 * HTTP server's 'upgrade' listener that @fastify/websocket installed, as are requests the HTTP parser
 * refuses (its 'clientError' listener). The same slow-client limits as the HTTP listener (server/app.ts) apply.
 */
export function createHttpsListener(options: HttpsListenerOptions): Server {
  const { app, limits } = options;
  const server = createServer(
    {
      key: options.keyPem,
      cert: options.certPem,
      requestTimeout: 60_000,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: 1000,
      // A handshake that never finishes holds a socket like a slow header would.
      handshakeTimeout: limits.headersTimeoutMs,
    },
    app.routing,
  );
  server.maxConnections = limits.connectionsTotal;
  capConnectionsPerAddress(server, limits.connectionsPerAddress);
  server.on('upgrade', (request, socket, head) => app.server.emit('upgrade', request, socket, head));
  // A request the HTTP parser refuses is answered as on the HTTP listener, in the API's envelope.
  server.on('clientError', (err, socket) => app.server.emit('clientError', err, socket));
  // A phone that does not trust the CA yet aborts the handshake: that is its answer, not our error.
  server.on('tlsClientError', (err, socket) => {
    app.log.debug({ code: (err as NodeJS.ErrnoException).code }, 'TLS handshake failed');
    socket.destroy();
  });
  return server;
}

/** Listens and answers the bound port (0 asks the system for a free one, as tests do). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Closes at once: idle and open connections included, as the HTTP side does on shutdown. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
