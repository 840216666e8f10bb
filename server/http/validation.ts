import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import type addFormatsType from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler, RouteOptions } from 'fastify';
import { HttpError } from './errors.ts';
import { compiledSchema, generatingSchemaCode, precompiledSchemaCode } from './precompiled-schemas.ts';

const requireHere = createRequire(import.meta.url);

/**
 * Ajv is required only here, when a schema has no code from the build (the TypeScript sources, tests, the
 * build's generator): the compiled gateway does not load it at start (lazy-schema-compilers.ts says why).
 */
function makeAjv(options: Options): Ajv {
  const { Ajv } = requireHere('ajv') as typeof import('ajv');
  const addFormats = requireHere('ajv-formats') as typeof addFormatsType;
  // The build's generator writes each validator's code out (precompiled-schemas.ts): Ajv keeps it then.
  const code = generatingSchemaCode() ? { code: { source: true } } : {};
  const ajv = new Ajv({ allErrors: false, useDefaults: true, removeAdditional: false, strict: false, ...code, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * A copy of a body schema in which every object that lists its properties refuses any other key
 * (docs/decisions.md, Limits and headers: a typo such as `deviceNmae` must be a 400 naming it, never a 200
 * that changes nothing). Objects that say what else they accept (`additionalProperties`,
 * `patternProperties`: a record such as `extras`) keep their own rule.
 */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `properties` maps names to schemas: recurse into each schema, not into the map as a schema.
    copy[key] = key === 'properties' || key === '$defs' || key === 'definitions'
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, sub]) => [name, closeObjects(sub)]))
      : closeObjects(value);
  }
  if ('properties' in copy && !('additionalProperties' in copy) && !('patternProperties' in copy)) {
    copy.additionalProperties = false;
  }
  return copy;
}

/**
 * JSON bodies are validated as sent: a number sent as "5" is a wrong type (400), not coerced, and an
 * unknown key is a 400 that names it. Query strings and path params are text by nature, so they are
 * coerced to the declared types; a query string is as strict as a body (an unknown parameter is a 400
 * naming it: `?hour=1` must not answer the default range as if it had been understood).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  // Made at the first compile, not at start: each Ajv compiles its meta-schemas and formats when built,
  // start-up time on a Pi core, and route schemas themselves compile on first request anyway.
  const ajvs: { body?: Ajv; coercing?: Ajv } = {};
  return ({ schema, httpPart }) => {
    const use = httpPart === 'body' ? 'body' : 'coercing';
    const source = (use === 'body' || httpPart === 'querystring' ? closeObjects(schema) : schema) as object;
    // The compiled gateway's validators were generated at build time: no compilation on the event loop.
    const generated = precompiledSchemaCode<ValidateFunction>(use, source);
    if (generated) {
      // Fastify hands a validator its request as parent only when it carries `schemaEnv` (an Ajv
      // validator does); the generated one takes the same argument, so it is marked the same way.
      if (!('schemaEnv' in generated)) Object.defineProperty(generated, 'schemaEnv', { value: { generated: true } });
      return generated as ReturnType<FastifySchemaCompiler<unknown>>;
    }
    const ajv = (ajvs[use] ??= makeAjv({ coerceTypes: use === 'body' ? false : 'array' }));
    const validate = ajv.compile(source);
    compiledSchema(use, source, () => {
      const standalone = requireHere('ajv/dist/standalone') as { default: (ajv: Ajv, validate: ValidateFunction) => string };
      return standalone.default(ajv, validate);
    });
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

/**
 * For a route that declares no body: a body with keys is refused (400 naming the first), as a typo
 * would be on a route with one. No body, `{}` or `null` pass (clients send one or the other).
 */
export async function refuseUnexpectedBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body)) {
    const [first] = Object.keys(body);
    if (first === undefined) return;
    throw new HttpError(400, `Invalid body: ${first} is not an accepted field (this request takes no body)`, [
      { field: first, message: `${first} is not an accepted field` },
    ]);
  }
  throw new HttpError(400, 'Invalid body: this request takes no body', [{ field: '(body)', message: 'this request takes no body' }]);
}

/**
 * For an API write that declares no query string: any parameter is refused (400 naming the first), as
 * an unknown one is on a route that declares some (`?force=1` must not read as understood).
 */
export async function refuseUnexpectedQuery(request: FastifyRequest): Promise<void> {
  const [first] = Object.keys(request.query as object);
  if (first === undefined) return;
  throw new HttpError(400, `Invalid query: ${first} is not an accepted field (this request takes no query parameters)`, [
    { field: first, message: `${first} is not an accepted field` },
  ]);
}

/**
 * Adds `refuseUnexpectedBody` to every route that may carry a body but declares none, and
 * `refuseUnexpectedQuery` to every /api write that declares no query string. A read without parameters
 * ignores a query string (a cache-buster or a monitor's probe id changes nothing), and the dashboard's
 * own pages and the websocket upgrade are left alone: a page's query is the dashboard's business.
 */
export function refuseUndeclaredInput(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const writes = methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH' || m === 'DELETE');
  const checks: Array<(request: FastifyRequest) => Promise<void>> = [];
  if (!route.schema?.body && writes) checks.push(refuseUnexpectedBody);
  if (!route.schema?.querystring && writes && (route.url === '/api' || route.url.startsWith('/api/'))) checks.push(refuseUnexpectedQuery);
  if (checks.length === 0) return;
  const existing = route.preValidation;
  route.preValidation = existing === undefined ? checks : [...(Array.isArray(existing) ? existing : [existing]), ...checks];
}
