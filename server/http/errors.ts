import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_ID_PATTERN, SAFE_TEXT_PATTERN, VISIBLE_TEXT_PATTERN, type FailureEnvelope } from '../contract/common.ts';
import { isStorageRefusal } from '../db/storage-refusal.ts';
import { DomainError, NotYetError, type DomainErrorKind, type RefusingLock } from '../domain/errors.ts';

/** An error whose message is safe and useful to show the client, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Array<{ field: string; message: string }>,
    /** A refused switch-on's lock, sent beside the message. */
    readonly lock?: RefusingLock,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The HTTP status of each domain refusal: the domain never speaks HTTP, this table does. */
const STATUS_OF_DOMAIN_ERROR: Record<DomainErrorKind, number> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  // docs/decisions.md: a safety refusal is a 409 with a message saying why.
  refused_by_safety: 409,
  unavailable: 503,
  busy: 429,
};

/** An error turned into what a client may see: its status, message and field (or null for a 5xx). */
export function clientErrorOf(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) {
    const errors = error.field ? [{ field: error.field, message: error.message }] : undefined;
    return new HttpError(STATUS_OF_DOMAIN_ERROR[error.kind], error.message, errors, error.lock);
  }
  if (isStorageRefusal(error)) return new HttpError(503, `The gateway's storage refuses writes: ${error.message}`);
  return null;
}

export const badRequest = (message: string, field?: string) =>
  new HttpError(400, message, field ? [{ field, message }] : undefined);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Your role is not allowed to do this') => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/**
 * One issue of a schema check, as Ajv (route schemas) and TypeBox's `Value.Errors` (websocket commands)
 * both report it: the same keywords, with a few differently named params.
 */
export interface SchemaIssue {
  instancePath?: string;
  schemaPath?: string;
  message?: string;
  params?: Record<string, unknown>;
  keyword?: string;
}

const firstName = (value: unknown): string | null =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;

/** Turns a schema issue into a field name and a sentence that names it; `root` names the whole input. */
function describeIssue(issue: SchemaIssue, root: string): { field: string; message: string } {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const under = (name: string) => (path ? `${path}.${name}` : name);
  // Ajv names one missing property, TypeBox lists them.
  const missing = firstName(issue.params?.missingProperty ?? issue.params?.requiredProperties);
  if (issue.keyword === 'required' && missing !== null) {
    const field = under(missing);
    return { field, message: `${field} is required` };
  }
  const field = path || root;
  const extra = firstName(issue.params?.additionalProperty ?? issue.params?.additionalProperties);
  if (issue.keyword === 'additionalProperties' && extra !== null) {
    return { field: under(extra), message: `${under(extra)} is not an accepted field` };
  }
  // TypeBox reports each unknown key first as the `false` schema of additionalProperties, at that key.
  if (issue.keyword === 'boolean' && issue.schemaPath?.endsWith('/additionalProperties') && path) {
    return { field: path, message: `${path} is not an accepted field` };
  }
  if (issue.keyword === 'pattern' && issue.params?.pattern === SAFE_TEXT_PATTERN) {
    return { field, message: `${field} must not contain control or bidirectional-override characters` };
  }
  if (issue.keyword === 'pattern' && issue.params?.pattern === VISIBLE_TEXT_PATTERN) {
    return { field, message: `${field} must contain a visible character (and no control or bidirectional-override characters)` };
  }
  if (issue.keyword === 'pattern' && issue.params?.pattern === DEVICE_ID_PATTERN) {
    return { field, message: `${field} may contain only letters, digits, _ and - (it is part of MQTT topics)` };
  }
  if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf' || issue.keyword === 'const' || issue.keyword === 'enum') {
    return { field, message: `${field} has an invalid value` };
  }
  return { field, message: `${field} ${issue.message ?? 'is invalid'}` };
}

/**
 * The 400 for input that failed its schema: "Invalid <where>: <first issue, naming its field>", with
 * every issue in `errors`. `where` is the part of a request (body, query, path) or a websocket command's
 * name; `root` names the whole input when it is what is wrong.
 */
export function invalidInput(where: string, issues: readonly SchemaIssue[], root = `(${where})`): HttpError {
  // A failed union is reported once per branch; the first issue names the field well enough.
  const described = dedupe(issues.map((issue) => describeIssue(issue, root)));
  const first = described[0] ?? { field: root, message: `${root} is invalid` };
  return new HttpError(400, `Invalid ${where}: ${first.message}`, described.length > 0 ? described : [first]);
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

function failure(reply: FastifyReply, statusCode: number, body: FailureEnvelope & { lock?: RefusingLock }) {
  return reply.status(statusCode).type('application/json').send(body);
}

/**
 * One error handler for the whole API: 4xx answers say what was wrong (naming the field), 5xx answers
 * say little and the details go to the log.
 */
export function handleError(error: FastifyError | HttpError | Error, request: FastifyRequest, reply: FastifyReply) {
  const known = clientErrorOf(error);
  if (known) {
    if (error instanceof NotYetError) reply.header('Retry-After', String(error.retryAfterSeconds));
    return failure(reply, known.statusCode, {
      success: false,
      message: known.message,
      ...(known.errors ? { errors: known.errors } : {}),
      ...(known.lock ? { lock: known.lock } : {}),
    });
  }
  const fastifyError = error as FastifyError & { validation?: SchemaIssue[]; validationContext?: string };
  if (fastifyError.validation) {
    const where = CONTEXT_NAMES[fastifyError.validationContext ?? ''] ?? 'request';
    const invalid = invalidInput(where, fastifyError.validation);
    return failure(reply, 400, { success: false, message: invalid.message, errors: invalid.errors });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return failure(reply, 413, { success: false, message: 'Request body is too large' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return failure(reply, 400, { success: false, message: 'Malformed JSON in request body' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return failure(reply, 415, { success: false, message: 'Content-Type must be application/json' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return failure(reply, 400, { success: false, message: 'Invalid Content-Length header' });
  }
  if (error instanceof SyntaxError) {
    return failure(reply, 400, { success: false, message: 'Malformed JSON in request body' });
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return failure(reply, status, { success: false, message: error.message || 'Bad request' });
  }
  request.log.error({ err: error }, 'request failed');
  return failure(reply, 500, { success: false, message: 'Server error occurred' });
}

function dedupe(issues: Array<{ field: string; message: string }>) {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.field}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
