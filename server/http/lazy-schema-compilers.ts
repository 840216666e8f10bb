import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

/*
 * Fastify compiles every route's schemas when the server starts: an Ajv validator per body, query and
 * params schema and a fast-json-stringify serializer per response schema, each a generated function
 * whose source, bytecode and closures stay on the heap for the life of the process. On the appliance
 * most routes are never called between restarts (a dashboard reads a handful; settings, users and
 * backups are opened now and then), and measured with bench/footprint.bench.ts those eager compilations
 * were a large share of the idle heap of a gateway nobody had asked anything yet. Here each route's
 * schema is compiled the first time a request needs it, then kept: the same validator, the same errors,
 * the same serialized output, only later. A schema that cannot compile still fails loudly, at its first
 * use instead of at start: tests/integration exercises every route, so none ships unnoticed.
 */

type Validate = ReturnType<FastifySchemaCompiler<unknown>>;
type AjvValidate = Validate & { errors?: unknown; schemaEnv?: unknown };

/** Wraps a validator compiler so each schema is compiled on its first request. */
export function compileValidatorsOnFirstUse(compile: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> {
  return (route) => {
    let compiled: AjvValidate | undefined;
    const validator = (): AjvValidate => (compiled ??= compile(route) as AjvValidate);
    const validate = ((data: unknown, dataContext?: unknown) =>
      (validator() as (data: unknown, dataContext?: unknown) => ReturnType<Validate>)(data, dataContext)) as AjvValidate;
    // Fastify reads both from the function it was given: `schemaEnv` (an Ajv validator, which is then
    // handed its parent so it may replace a coerced root value) and `errors` after a failed call.
    Object.defineProperties(validate, {
      schemaEnv: { get: () => validator().schemaEnv },
      errors: { get: () => validator().errors },
    });
    return validate;
  };
}

/**
 * fast-json-stringify as Fastify's default serializer compiler calls it (no shared schemas are added
 * with addSchema here), built on the first reply that uses each response schema.
 */
export function compileSerializersOnFirstUse(): FastifySerializerCompiler<unknown> {
  return ({ schema }) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]))(data);
  };
}
