import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { FailureEnvelope } from '../contract/common.ts';
import { handleError } from './errors.ts';

/*
 * Requests refused before any route or hook sees them, answered in the API's envelope
 * (docs/decisions.md, Contract: `{ success: false, message }`, the message naming what was wrong)
 * instead of Fastify's or Node's own bodies: a path that is not valid URL encoding or whose parameter
 * is longer than the router takes (Fastify's `frameworkErrors`), and a request Node's HTTP parser
 * refuses (the server's 'clientError': headers too large, not HTTP, too slow).
 */

/** Headers every response carries (the security headers, no caching): hooks do not run for these. */
export type FixedHeaders = Record<string, string>;

/**
 * The headers a middleware such as Helmet's sets on every response, collected once: these answers go
 * out before (or without) the hooks that run it, and a raw socket has no response object to run it on.
 */
export function headersSetBy(middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void): FixedHeaders {
  const headers: FixedHeaders = {};
  const collector = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  middleware({ headers: {} } as IncomingMessage, collector as unknown as ServerResponse, () => {});
  return headers;
}

/** The router's limit on one path parameter (find-my-way's default). */
export const MAX_PATH_PARAM_CHARS = 100;

/** Fastify's `frameworkErrors` option: bad URL encoding (400) and an over-long path parameter (414). */
export function frameworkErrorHandler(headers: FixedHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(headers);
    if (error.code === 'FST_ERR_BAD_URL') {
      const name = paramAt(request, (segment) => decode(segment) === null);
      send(reply, 400, `Invalid path: ${name ?? 'the path'} is not valid URL encoding (a % must be followed by two hex digits)`, name);
      return;
    }
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      if (!refuseOverlongParam(request, reply)) send(reply, 414, `Invalid path: a part of the path is too long (at most ${MAX_PATH_PARAM_CHARS} characters)`, null);
      return;
    }
    handleError(error, request, reply);
  };
}

/**
 * Answers 414 naming the parameter when a route would take this path but for a parameter longer than
 * the router's limit; false (nothing sent) otherwise. The not-found handler asks too: with the
 * dashboard's wildcard route in place the router falls back to it instead of reporting the limit.
 */
export function refuseOverlongParam(request: FastifyRequest, reply: FastifyReply): boolean {
  const name = paramAt(request, (segment) => (decode(segment) ?? segment).length > MAX_PATH_PARAM_CHARS);
  if (name === null) return false;
  send(reply, 414, `Invalid path: ${name} is too long (at most ${MAX_PATH_PARAM_CHARS} characters)`, name);
  return true;
}

function send(reply: FastifyReply, status: number, message: string, field: string | null): void {
  const body: FailureEnvelope = { success: false, message, ...(field ? { errors: [{ field, message }] } : {}) };
  void reply.status(status).type('application/json').send(body);
}

/** The segment decoded, or null when it is not valid URL encoding. */
function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The name of the route parameter at the first path segment that `isBad` picks: the path is matched
 * again with that segment replaced by a stand-in, and the route says which parameter took it. Null
 * when no route matches that way.
 */
function paramAt(request: FastifyRequest, isBad: (segment: string) => boolean): string | null {
  const STAND_IN = '_refused_segment_';
  const segments = (request.raw.url ?? '/').split('?')[0]!.split('/');
  const index = segments.findIndex((segment, i) => i > 0 && isBad(segment));
  if (index < 0) return null;
  segments[index] = STAND_IN;
  const route = request.server.findRoute({ method: request.method as 'GET', url: segments.join('/') });
  const params = (route?.params ?? {}) as Record<string, string>;
  return Object.keys(params).find((name) => params[name] === STAND_IN) ?? null;
}

/**
 * The server's 'clientError' listener (Fastify's `clientErrorHandler`, and the HTTPS listener's):
 * an envelope on the raw socket, then the socket is closed, as Node does.
 */
export function clientErrorAnswerer(headers: FixedHeaders, logger: Logger) {
  return (err: NodeJS.ErrnoException & { reason?: string }, socket: Duplex): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] = describeClientError(err);
    logger.debug({ code: err.code, status }, 'request refused by the HTTP parser');
    if (socket.writable) {
      const body = JSON.stringify({ success: false, message } satisfies FailureEnvelope);
      const lines = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    }
    socket.destroy();
  };
}

function describeClientError(err: NodeJS.ErrnoException & { reason?: string }): [number, string] {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return [431, `Request headers are too large: at most ${Math.floor(maxHeaderSize / 1024)} kB in all, the request line included`];
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request took too long to arrive'];
  // llhttp says what it refused (e.g. "Invalid header value char"); it names no input of ours.
  return [400, `The request is not valid HTTP${err.reason ? ` (${err.reason})` : ''}`];
}
