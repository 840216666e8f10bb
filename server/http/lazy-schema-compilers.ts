import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { compiledSchema, precompiledSchemaCode } from './precompiled-schemas.ts';

/*
 * Fastify compiles every route's schemas when the server starts: an Ajv validator per body, query and
 * params schema and a fast-json-stringify serializer per response schema, each a generated function
 * whose source, bytecode and closures stay on the heap for the life of the process. On the appliance
 * most routes are never called between restarts (a dashboard reads a handful; settings, users and
 * backups are opened now and then), and measured with bench/footprint.bench.ts those eager compilations
 * were a large share of the idle heap of a gateway nobody had asked anything yet. Here each route's
 * schema is compiled the first time a request needs it, then kept: the same validator, the same errors,
 * the same serialized output, only later. So that a schema which cannot compile is not found by a
 * grower's first request, `compileAllSchemas()` compiles every one still waiting (the gateway's tests
 * call it on the whole app).
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route schema not compiled yet; throws what a schema that cannot compile throws. */
    compileAllSchemas(): void;
  }
}

type Validate = ReturnType<FastifySchemaCompiler<unknown>>;
type AjvValidate = Validate & { errors?: unknown; schemaEnv?: unknown };

/** Installs validator and serializer compilers that compile each schema on its first use. */
export function compileSchemasOnFirstUse(app: FastifyInstance, compileValidator: FastifySchemaCompiler<unknown>): void {
  const waiting = new Set<() => unknown>();
  /** A compiled value made on first call, waiting in `waiting` until then. */
  const onFirstUse = <T>(compile: () => T): (() => T) => {
    let compiled: { value: T } | undefined;
    const get = () => {
      if (!compiled) {
        compiled = { value: compile() };
        waiting.delete(get);
      }
      return compiled.value;
    };
    waiting.add(get);
    return get;
  };

  app.setValidatorCompiler((route) => {
    const validator = onFirstUse(() => compileValidator(route) as AjvValidate);
    const validate = ((data: unknown, dataContext?: unknown) =>
      (validator() as (data: unknown, dataContext?: unknown) => ReturnType<Validate>)(data, dataContext)) as AjvValidate;
    // Fastify reads both from the function it was given: `schemaEnv` (an Ajv validator, which is then
    // handed its parent so it may replace a coerced root value) and `errors` after a failed call. That is
    // Fastify's lib/validation.js, not a documented API: tests/unit/server/fastify-validator-contract.test.ts
    // pins it, so an upgrade that changes it fails a test.
    Object.defineProperties(validate, {
      schemaEnv: { get: () => validator().schemaEnv },
      errors: { get: () => validator().errors },
    });
    return validate;
  });
  // fast-json-stringify as Fastify's default serializer compiler calls it (no shared schemas are added
  // with addSchema here); in the compiled gateway, its code generated at build time (precompiled-schemas.ts).
  const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
    const serializer = onFirstUse(() => {
      const generated = precompiledSchemaCode<(data: unknown) => string>('response', schema);
      if (generated) return generated;
      const typed = schema as Parameters<typeof fastJsonStringify>[0];
      compiledSchema('response', schema, () => fastJsonStringify(typed, { mode: 'standalone', inlineValidators: true }) as unknown as string);
      return fastJsonStringify(typed);
    });
    return (data) => serializer()(data);
  };
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('compileAllSchemas', () => {
    for (const compile of [...waiting]) compile();
  });
}
