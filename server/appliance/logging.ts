import type { LoggerOptions } from 'pino';

/** Field names that carry a secret, wherever they appear in what is logged. */
const SECRET_KEYS = new Set(['password', 'currentPassword', 'newPassword', 'pass', 'token', 'secret', 'jwtSecret', 'authorization', 'cookie']);
const CENSOR = '[redacted]';
/** Deeper than anything the gateway logs; what lies below is left as it is. */
const MAX_DEPTH = 8;

/**
 * Paths pino censors itself: a request body, and the headers of a request logged as a plain object.
 * None begins with a wildcard. A path like `*.password` makes pino run every value of every line, and
 * the bindings of every child logger (one per request), through a redactor that parses all such paths
 * again on each call (docs/performance.md, "A night on the gateway"); secrets below the top level are
 * found by name instead (censorSecrets).
 */
export const REDACT_PATHS = ['req.body', 'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'];

/**
 * The logged object with every field named like a secret censored, at any depth: plain objects, arrays
 * and errors (a failed connection's error may carry the config it failed on). A copy is made only of
 * what holds a secret; anything else (a request, a socket, a Buffer) is left to its serializer.
 */
export function censorSecrets<T>(value: T, depth = 0): T {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => censorSecrets(item, depth + 1));
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  const isError = value instanceof Error;
  if (!isError && !isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const [key, field] of Object.entries(value)) {
    const censored = SECRET_KEYS.has(key) && field !== undefined && field !== null ? CENSOR : censorSecrets(field, depth + 1);
    if (censored === field) continue;
    copy ??= isError ? errorCopy(value) : { ...(value as Record<string, unknown>) };
    copy[key] = censored;
  }
  return (copy ?? value) as T;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Still an error to pino's serializer (its type, message and stack), with its own fields to censor. */
function errorCopy(error: Error): Record<string, unknown> {
  return Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Record<string, unknown>, error, { message: error.message, stack: error.stack });
}

/**
 * The process logger (pino, which Fastify logs through too): JSON lines on stdout, which journald keeps, with secrets
 * censored. LOG_LEVEL picks the level (default info).
 */
export function applianceLoggerOptions(env: Record<string, string | undefined>): LoggerOptions {
  return {
    level: env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    formatters: { log: (object) => censorSecrets(object) },
  };
}
