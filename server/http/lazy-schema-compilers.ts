import { createRequire } from 'node:module';
import type fastJsonStringifyType from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyServerOptions } from 'fastify';
import { nextTurn } from '../history/turn-taking.ts';
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
 *
 * A first use is still main-thread work: for the rule preview's body, loading the generated code took
 * 3-5 ms at full speed and its first call (V8 compiling the function) 2-5 ms more, eight times that on a
 * Pi core, all in the turn of the route's first request with the request's own work. So the first request
 * of a route waits while what it will need (its validators, its success serializers) is loaded and then
 * called once, each step in a turn of the event loop of its own (`prepareRoute`, called from a
 * preValidation hook in server/app.ts): sampling and the safety timers run in between.
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
  /**
   * Makes what a request to this route needs and is still waiting (its validators, its 2xx
   * serializers), one per turn of the event loop; null when nothing waits, as after its first request.
   * `method` and `url` are the route's own (Fastify's `request.routeOptions`). A schema that cannot
   * compile is left waiting, to throw where the request uses it, as before.
   */
  prepareRoute(method: unknown, url: string | undefined): Promise<void> | null;
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

/** The key a route's schemas are kept under: Fastify hands the compilers and the request the same two values. */
const routeKey = (method: unknown, url: unknown) => `${String(method)} ${String(url)}`;

export function createLazySchemaCompilers(compileValidator: FastifySchemaCompiler<unknown>): LazySchemaCompilers {
  const waiting = new Set<() => unknown>();
  /** What each route's requests need that is still waiting. */
  const waitingByRoute = new Map<string, Set<() => unknown>>();
  /** A compiled value made on first call, waiting in `waiting` (and under `route`, if given) until then. */
  const onFirstUse = <T>(compile: () => T, route?: string): (() => T) => {
    let compiled: { value: T } | undefined;
    const get = () => {
      if (!compiled) {
        compiled = { value: compile() };
        waiting.delete(get);
        const ofRoute = route === undefined ? undefined : waitingByRoute.get(route);
        ofRoute?.delete(get);
        if (ofRoute?.size === 0) waitingByRoute.delete(route!);
      }
      return compiled.value;
    };
    waiting.add(get);
    if (route !== undefined) {
      const ofRoute = waitingByRoute.get(route) ?? new Set();
      ofRoute.add(get);
      waitingByRoute.set(route, ofRoute);
    }
    return get;
  };

  const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
    const validator = onFirstUse(() => compileValidator(route) as AjvValidate, routeKey(route.method, route.url));
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
    // A success's serializer is made before the route's first request runs; an error's when one is sent.
    const success = String(route.httpStatus).startsWith('2');
    const serializer = onFirstUse(() => {
      // Unions of scalars serialized by type, not by inline validators (serializer-schema.ts).
      const schema = serializerSchema(route.schema);
      const generated = precompiledSchemaCode<(data: unknown) => string>('response', schema);
      if (generated) return generated;
      const fastJsonStringify = requireHere('fast-json-stringify') as typeof fastJsonStringifyType;
      const typed = schema as Parameters<typeof fastJsonStringifyType>[0];
      compiledSchema('response', schema, () => fastJsonStringify(typed, { mode: 'standalone', inlineValidators: true }) as unknown as string);
      return fastJsonStringify(typed);
    }, success ? routeKey(route.method, route.url) : undefined);
    return (data) => serializer()(data);
  };
  const compileAll = () => {
    for (const compile of [...waiting]) compile();
  };
  /** Makes each of `pending` in turns of its own: loaded, then called once (V8 compiles a function at its first call). */
  const makeInTurns = async (pending: ReadonlySet<() => unknown>) => {
    for (const compile of [...pending]) {
      await nextTurn();
      let made: unknown;
      try {
        made = compile();
      } catch {
        // Left waiting: the request's validation or reply throws it, and the error handler answers.
        continue;
      }
      // For a large validator the first call takes as long again as loading it: that too in a turn of
      // its own. Called with nothing, it only refuses or throws.
      await nextTurn();
      try {
        (made as (data: unknown) => unknown)(undefined);
      } catch {
        // A serializer throws for a missing object: it is compiled all the same.
      }
    }
  };
  /** Per route being prepared: the turn the last request waiting for it goes on in. */
  const released = new Map<string, Promise<void>>();
  const prepareRoute = (method: unknown, url: string | undefined): Promise<void> | null => {
    const key = routeKey(method, url);
    const pending = waitingByRoute.get(key);
    if (!pending) return null;
    let last = released.get(key);
    if (!last) {
      last = makeInTurns(pending);
      void last.finally(() => released.delete(key)).catch(() => undefined);
    }
    // Requests that waited together go on one per turn, not all in the turn their schemas are ready in.
    const mine = last.then(nextTurn);
    released.set(key, mine);
    return mine;
  };
  return { validatorCompiler, serializerCompiler, compileAll, prepareRoute };
}
