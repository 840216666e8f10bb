import { createRequire } from 'node:module';
import type fastJsonStringifyType from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyServerOptions } from 'fastify';
import { compiledSchema, precompiledSchemaCode } from './precompiled-schemas.ts';
import { serializerSchema } from './serializer-schema.ts';

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
 *
 * The compilers reach Fastify through its `schemaController` option, not through setValidatorCompiler:
 * a server created without builders of its own requires @fastify/ajv-compiler and
 * @fastify/fast-json-stringify-compiler at once, and with them Ajv and fast-json-stringify, for defaults
 * that are then replaced. In the compiled gateway every schema's code comes from the build, and those
 * libraries are loaded only if a schema the build did not see turns up (fast-json-stringify here, Ajv in
 * validation.ts): about 400 kB of JavaScript less compiled at every start (docs/performance.md).
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route schema not compiled yet; throws what a schema that cannot compile throws. */
    compileAllSchemas(): void;
  }
}

type Validate = ReturnType<FastifySchemaCompiler<unknown>>;
type AjvValidate = Validate & { errors?: unknown; schemaEnv?: unknown };

/** Validator and serializer compilers that compile each schema on its first use. */
export interface LazySchemaCompilers {
  validatorCompiler: FastifySchemaCompiler<unknown>;
  serializerCompiler: FastifySerializerCompiler<unknown>;
  /** Compiles every route schema not compiled yet; throws what a schema that cannot compile throws. */
  compileAll(): void;
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's `schemaController` option that gives every route these compilers. Fastify types the builders
 * after Ajv's and fast-json-stringify's compilers, but calls what they return exactly as it calls a
 * compiler given to setValidatorCompiler or setSerializerCompiler (its lib/schema-controller.js).
 */
export function lazySchemaController(compilers: LazySchemaCompilers): FastifyServerOptions['schemaController'] {
  return {
    compilersFactory: {
      buildValidator: (() => compilers.validatorCompiler) as unknown as CompilersFactory['buildValidator'],
      buildSerializer: (() => compilers.serializerCompiler) as unknown as CompilersFactory['buildSerializer'],
    },
  };
}

const requireHere = createRequire(import.meta.url);

export function createLazySchemaCompilers(compileValidator: FastifySchemaCompiler<unknown>): LazySchemaCompilers {
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

  const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
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
  };
  // fast-json-stringify as Fastify's default serializer compiler calls it (no shared schemas are added
  // with addSchema here); in the compiled gateway, its code generated at build time (precompiled-schemas.ts).
  const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
    const serializer = onFirstUse(() => {
      // Unions of scalars serialized by type, not by inline validators (serializer-schema.ts).
      const schema = serializerSchema(route.schema);
      const generated = precompiledSchemaCode<(data: unknown) => string>('response', schema);
      if (generated) return generated;
      const fastJsonStringify = requireHere('fast-json-stringify') as typeof fastJsonStringifyType;
      const typed = schema as Parameters<typeof fastJsonStringifyType>[0];
      compiledSchema('response', schema, () => fastJsonStringify(typed, { mode: 'standalone', inlineValidators: true }) as unknown as string);
      return fastJsonStringify(typed);
    });
    return (data) => serializer()(data);
  };
  const compileAll = () => {
    for (const compile of [...waiting]) compile();
  };
  return { validatorCompiler, serializerCompiler, compileAll };
}
