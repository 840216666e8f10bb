import type { LoggerOptions } from 'pino';

/**
 * Log fields that may carry a secret, wherever they appear (request headers, bodies logged with an
 * error, a config object). pino's redact paths are exact paths with `*` for one level, so the common
 * nesting depths are listed.
 */
const SECRET_KEYS = ['password', 'currentPassword', 'newPassword', 'pass', 'token', 'secret', 'jwtSecret'];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'smtp.pass',
  'config.smtp.pass',
  'mqtt.password',
  'config.mqtt.password',
  'req.body',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]),
];

/**
 * The process logger (pino, which Fastify logs through too): JSON lines on stdout, which journald keeps, with secrets
 * censored. LOG_LEVEL picks the level (default info).
 */
export function applianceLoggerOptions(env: Record<string, string | undefined>): LoggerOptions {
  return {
    level: env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}
