import type { Server, Socket } from 'node:net';

/**
 * Drops a TCP connection at accept when its address already holds `maxPerAddress` (server/README.md,
 * Limits): slow-header clients from one address, reopened as fast as they are timed out, then cannot
 * take the gateway-wide `maxConnections`, and health checks and sign-ins from elsewhere still get in.
 */
export function capConnectionsPerAddress(server: Server, maxPerAddress: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > maxPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
