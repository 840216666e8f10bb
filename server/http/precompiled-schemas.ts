import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Route validators and serializers generated at build time (docs/performance.md, "What held the loop
 * beside a preview"). Compiling a route's schema is one uninterruptible piece of main-thread work: Ajv
 * took about 40 ms at full speed for the rule preview's body, some 400 ms on a Pi core, at the first
 * preview after each start, holding sampling, rules and safety timers that long; fast-json-stringify compiles each
 * response schema the same way. The build (scripts/build-server.mjs) runs
 * dist/server/generate-schema-code.js, which compiles every route schema once with the libraries'
 * standalone code generation and writes each as a small CommonJS module named by its key under
 * dist/server/schemas/. The compiled gateway loads one from there the first time a route needs it: a
 * file read and V8's lazy parse, not a compilation. Same options, same generated code: the same checks,
 * defaults, errors and output. From the TypeScript sources (development, tests) there is no such
 * directory, and every schema is compiled at first use as before (lazy-schema-compilers.ts).
 */

/** What a schema is compiled into: a body validator (strict), a query/params validator (coercing), a response serializer. */
export type SchemaUse = 'body' | 'coercing' | 'response';

const SCHEMAS_DIR = fileURLToPath(new URL('../schemas/', import.meta.url));

/** A compiled schema's file name: what it is compiled for, and its exact text. */
export function schemaCodeKey(use: SchemaUse, schema: unknown): string {
  return createHash('sha256').update(`${use}\n${JSON.stringify(schema)}`).digest('hex').slice(0, 32);
}

const loaders = new Map<string, NodeJS.Require | null>();

/** The build's code for this schema, or null when there is none (sources, or a schema the build did not see). */
export function precompiledSchemaCode<T>(use: SchemaUse, schema: unknown, dir = SCHEMAS_DIR): T | null {
  if (recorder) return null; // the generator compiles everything itself
  let load = loaders.get(dir);
  if (load === undefined) {
    load = existsSync(dir) ? createRequire(join(dir, 'index.cjs')) : null;
    loaders.set(dir, load);
  }
  const file = join(dir, `${schemaCodeKey(use, schema)}.cjs`);
  if (load === null || !existsSync(file)) return null;
  return load(file) as T;
}

/** What the generator is handed for each schema compiled: the library's own standalone code for it. */
export type SchemaCodeRecorder = (use: SchemaUse, schema: unknown, standaloneCode: () => string) => void;

/** Set by the build's generator (server/http/generate-schema-code.ts) only. */
let recorder: SchemaCodeRecorder | null = null;

export function recordSchemaCode(record: SchemaCodeRecorder | null): void {
  recorder = record;
}

/** Called by the compilers with each schema they compiled (the generator writes its code out). */
export function compiledSchema(use: SchemaUse, schema: unknown, standaloneCode: () => string): void {
  recorder?.(use, schema, standaloneCode);
}

/** Whether the compilers must keep what standalone code needs (only while the generator runs: it costs memory). */
export function generatingSchemaCode(): boolean {
  return recorder !== null;
}
