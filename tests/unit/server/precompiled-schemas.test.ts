import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fastJsonStringify from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompiledSchemaCode, recordSchemaCode, schemaCodeKey, type SchemaUse } from '../../../server/http/precompiled-schemas.ts';
import { createValidatorCompiler } from '../../../server/http/validation.ts';
import { startTestGateway } from '../../support/gateway.ts';

interface Recorded {
  use: SchemaUse;
  schema: unknown;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * What the build does (server/http/generate-schema-code.ts), on the whole gateway from its sources: every
 * route schema compiled and its standalone code written to a directory, then each loaded back from there
 * as the compiled gateway loads it and compared with what compiling it at run time gives.
 */
describe('route schema code generated at build time', () => {
  // Inside the project, as dist/server/schemas/ is: the generated code requires the libraries' runtime parts.
  const dir = mkdtempSync(join(process.cwd(), 'node_modules', '.schema-code-test-'));
  const recorded: Recorded[] = [];

  beforeAll(async () => {
    recordSchemaCode((use, schema, standaloneCode) => {
      writeFileSync(join(dir, `${schemaCodeKey(use, schema)}.cjs`), standaloneCode());
      recorded.push({ use, schema });
    });
    const gateway = await startTestGateway();
    try {
      gateway.app.compileAllSchemas();
    } finally {
      recordSchemaCode(null);
      await gateway.dispose();
    }
    writeFileSync(join(dir, 'index.cjs'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('covers every route schema: body and query validators and response serializers', () => {
    const uses = new Set(recorded.map((r) => r.use));
    expect([...uses].sort()).toEqual(['body', 'coercing', 'response']);
    for (const { use, schema } of recorded) expect(precompiledSchemaCode(use, schema, dir), `${use} ${JSON.stringify(schema).slice(0, 80)}`).not.toBeNull();
  });

  it('finds nothing for a schema the build did not see (that one is compiled at run time)', () => {
    expect(precompiledSchemaCode('body', { type: 'object', properties: { unseen: { type: 'string' } } }, dir)).toBeNull();
  });

  it('validates every body and query exactly as Ajv compiled at run time: same answer, same errors, same defaults', () => {
    const compile = createValidatorCompiler();
    const inputs = [{}, null, [], 'text', { unknownField: 1 }, { hours: '24' }, { hours: 0 }, { automationRules: { temperatureHigh: '24' }, hours: 168 }, { automationRules: { temperatureHigh: 24 }, hours: 168 }];
    for (const { use, schema } of recorded.filter((r) => r.use !== 'response')) {
      const generated = precompiledSchemaCode<Validate>(use, schema, dir)!;
      const ajv = compile({ schema: schema as object, httpPart: use === 'body' ? 'body' : 'querystring', method: 'POST', url: '/' }) as unknown as Validate;
      for (const input of inputs) {
        const [a, b] = [structuredClone(input), structuredClone(input)];
        expect(generated(a)).toBe(ajv(b));
        expect(generated.errors ?? null).toEqual(ajv.errors ?? null);
        expect(a).toEqual(b);
      }
    }
  });

  it('serializes every response exactly as fast-json-stringify compiled at run time', () => {
    const samples = [{}, { success: true }, { success: true, data: [] }, { success: false, message: 'no' }];
    for (const { schema } of recorded.filter((r) => r.use === 'response')) {
      const generated = precompiledSchemaCode<(data: unknown) => string>('response', schema, dir)!;
      const compiled = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]);
      for (const sample of samples) {
        const outcome = (serialize: (data: unknown) => string) => {
          try {
            return serialize(sample);
          } catch (err) {
            return `threw ${(err as Error).message}`;
          }
        };
        expect(outcome(generated)).toBe(outcome(compiled));
      }
    }
  });
});
