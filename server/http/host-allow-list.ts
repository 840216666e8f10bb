import { hostname, networkInterfaces } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The names a request may carry in its Host header (docs/hardware.md, "Host names"): the gateway's own
 * addresses and host name (and `<name>.local`, as mDNS announces it), localhost, the listen address
 * and config `allowedHosts`. Anything else is a DNS-rebinding page speaking to the gateway through a
 * name of its own, and is refused with 421 before any route, the dashboard and /ws included.
 */
export function allowedHostNames(options: { listenHost: string; allowedHosts: readonly string[] }): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '::1', options.listenHost.toLowerCase()]);
  const own = hostname().toLowerCase();
  names.add(own);
  names.add(`${own}.local`);
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) names.add(address.address.toLowerCase().replace(/%.*$/, ''));
  }
  for (const host of options.allowedHosts) names.add(host.toLowerCase());
  return names;
}

/** The host part of a Host header: without its port, without IPv6 brackets, lower-cased. */
export function hostOf(header: string): string {
  const trimmed = header.trim().toLowerCase().replace(/\.$/, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed);
  if (bracketed) return bracketed[1]!;
  // One colon: name:port. More: a bare IPv6 address (not valid in Host, but not a name either).
  return (trimmed.match(/:/g)?.length ?? 0) === 1 ? trimmed.slice(0, trimmed.indexOf(':')) : trimmed;
}

export function makeHostGuard(allowed: () => Set<string>) {
  return async function hostGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.host;
    // HTTP/1.0 clients may send none; browsers always do, and rebinding needs a browser.
    if (header === undefined) return;
    if (allowed().has(hostOf(header))) return;
    // A refused websocket upgrade has left Node's HTTP connection tracking: end its socket ourselves,
    // or it would stay open (and hold the gateway's close) after the answer.
    if (request.headers.upgrade) {
      reply.header('connection', 'close');
      reply.raw.once('finish', () => request.raw.socket?.destroy());
    }
    await reply
      .status(421)
      .header('cache-control', 'no-store')
      .type('application/json')
      .send({ success: false, message: `Host '${header.slice(0, 100)}' is not this gateway's: add it to config allowedHosts if you reach the gateway by that name` });
  };
}
