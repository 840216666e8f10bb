import { DomainError } from '../domain/errors.ts';

/** What an MQTT command's result says when it fails: its message, and the lock kind of a refusal. */
export interface CommandFailure {
  message: string;
  lock?: string;
  /** Whether the failure is the gateway's own (logged as an error, never shown in detail). */
  internal: boolean;
}

/**
 * Maps a failed command as HTTP's one error handler does (server/http/errors.ts): a DomainError's
 * message is meant for the client and is passed on; anything else is the gateway's own fault, whose
 * message (a SQL error, a stack detail) stays in the log and never reaches the broker.
 */
export function commandFailureOf(err: unknown): CommandFailure {
  if (err instanceof DomainError) return { message: err.message, lock: err.lock?.kind, internal: false };
  return { message: 'Internal error: the command was not carried out', internal: true };
}
