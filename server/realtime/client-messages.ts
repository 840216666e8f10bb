import Type, { type TSchema } from 'typebox';
import Value from 'typebox/value';
import { type HttpError, invalidInput } from '../http/errors.ts';

/*
 * The shapes of what a client sends on /ws that the hub reads itself (docs/decisions.md, Realtime).
 * They are as strict as a REST body: an unknown key is refused with a message naming it, worded like
 * the REST 400s. A feature's own command (device-control) checks its `data` the same way.
 */

/** Every message: `{ "event": string, "data": any }` and nothing else. */
export const ClientMessage = Type.Object({ event: Type.String(), data: Type.Optional(Type.Unknown()) }, { additionalProperties: false });

/** `authenticate`'s data. */
export const AuthenticateData = Type.Object({ token: Type.String() }, { additionalProperties: false });

/** `join-greenhouse`'s data when it is an object rather than the id itself. */
export const JoinGreenhouseObject = Type.Object({ greenhouseId: Type.String() }, { additionalProperties: false });

/** Null when `value` fits `schema`, else the 400 naming what is wrong ("Invalid <where>: ..."). */
export function messageProblem(schema: TSchema, value: unknown, where: string, root = 'data'): HttpError | null {
  return Value.Check(schema, value) ? null : invalidInput(where, Value.Errors(schema, value), root);
}

/** The greenhouse id a `join-greenhouse` asks for: its data, or its data's `greenhouseId`. */
export function joinedGreenhouseId(data: unknown): string | HttpError {
  if (typeof data === 'string') return data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return invalidInput('join-greenhouse', [{ message: 'must be a greenhouse id' }], 'data');
  }
  return messageProblem(JoinGreenhouseObject, data, 'join-greenhouse') ?? (data as { greenhouseId: string }).greenhouseId;
}

/** A close frame's reason is at most 123 bytes (RFC 6455 5.5): longer text is cut, never mid-character. */
export function closeReason(text: string): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= 123) return text;
  return new TextDecoder().decode(bytes.subarray(0, 120)).replace(/\uFFFD+$/, '') + '...';
}
