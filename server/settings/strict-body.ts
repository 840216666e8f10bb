import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { createValidatorCompiler } from '../http/validation.ts';

/**
 * The app's compiler strips unknown keys from bodies silently. For settings that hides typos: a PUT of
 * `{ systemSettings: { dataRetentionDay: 7 } }` would answer 200 and change nothing. Settings bodies
 * are therefore validated with unknown keys refused (400 naming the key); other parts use the app's.
 */
export function createStrictBodyCompiler(): FastifySchemaCompiler<unknown> {
  const strict = new Ajv({ allErrors: false, useDefaults: false, removeAdditional: false, coerceTypes: false, strict: false });
  addFormats.default(strict);
  const fallback = createValidatorCompiler();
  return (route) =>
    route.httpPart === 'body'
      ? (strict.compile(route.schema as object) as ReturnType<FastifySchemaCompiler<unknown>>)
      : fallback(route);
}
