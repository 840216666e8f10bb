/**
 * What the domain says when it will not do something. Services throw these; they know nothing of HTTP.
 * The one error handler (server/http/errors.ts) and the realtime hub turn them into a status.
 */
export type DomainErrorKind =
  /** The request itself is wrong (a value out of range, a name already used in a body...). */
  | 'invalid'
  /** The thing asked for does not exist. */
  | 'not_found'
  /** The request clashes with the current state (duplicate, maintenance mode, resolved already). */
  | 'conflict'
  /** A safety rule refuses it (pump lockout, interlock, cut-off). */
  | 'refused_by_safety'
  /** The hardware cannot do it right now (an output missing or not answering). */
  | 'unavailable'
  /** Too much of this work is running already (heavy reads capped per account and in all); retry shortly. */
  | 'busy';

/** The lock that refused a switch-on (the wire's DeviceLock; the domain keeps its own copy of the shape). */
export interface RefusingLock {
  kind: string;
  text: string;
  until?: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The field of the request the message is about, for 'invalid' (and a clashing 'conflict'). */
    readonly field?: string,
    /** For a refused switch-on: the lock that refused it. */
    readonly lock?: RefusingLock,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Unavailable for now, with when asking again is worth it (history while its rollups catch up: 503, Retry-After). */
export class NotYetError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('unavailable', message);
    this.name = 'NotYetError';
  }
}

export const invalid = (message: string, field?: string) => new DomainError('invalid', message, field);
export const notFound = (message: string) => new DomainError('not_found', message);
/** `field`: the field of the request that clashes (a name or id already in use), sent beside the message. */
export const conflict = (message: string, field?: string) => new DomainError('conflict', message, field);
export const refusedBySafety = (message: string) => new DomainError('refused_by_safety', message);
export const refusedByLock = (message: string, lock: RefusingLock) => new DomainError('refused_by_safety', message, undefined, lock);
export const unavailable = (message: string) => new DomainError('unavailable', message);
export const busy = (message: string) => new DomainError('busy', message);

/** A refusal the caller should expect and retry later (rules ask again next tick), not a failure. */
export function isRefusal(err: unknown): err is DomainError {
  return err instanceof DomainError && err.kind !== 'unavailable';
}
