// What server/http/lazy-schema-compilers.ts relies on of Fastify's request validation (its
// lib/validation.js, not a documented API): a Fastify upgrade that changes any of it fails here, not on
// a grower's request. The compiled function it hands Fastify is a stand-in for Ajv's, so Fastify must
//  1. read `schemaEnv` from that function and, when present, call it with `{ parentData: request,
//     parentDataProperty }` so a validator may replace the whole request part (a coerced root value);
//  2. call it with the bare data when `schemaEnv` is absent;
//  3. read `errors` from the function AFTER a call that returned false (a getter, not a value copied
//     when the route was compiled) and answer 400 with them as `error.validation`.
import Fastify, { type FastifySchemaCompiler } from 'fastify';
import { describe, expect, it } from 'vitest';

type Call = { data: unknown; context: unknown };

/** A validator compiler whose functions look like Ajv's as far as the wanted features go. */
function compilerWith(options: { schemaEnv: boolean }) {
  const calls: Call[] = [];
  let errorsReadAfterCall = 0;
  const compile: FastifySchemaCompiler<unknown> = () => {
    let lastErrors: unknown[] | null = null;
    let called = false;
    const validate = ((data: unknown, context?: { parentData: Record<string, unknown>; parentDataProperty: string }) => {
      calls.push({ data, context });
      called = true;
      const query = data as Record<string, string>;
      if (query.n === 'bad') {
        lastErrors = [{ instancePath: '/n', message: 'must be a number', keyword: 'type', params: {}, schemaPath: '#/properties/n/type' }];
        return false;
      }
      lastErrors = null;
      // Replace the root value through its parent, as Ajv does for a coerced root.
      if (context) context.parentData[context.parentDataProperty] = { n: Number(query.n), replaced: true };
      return true;
    }) as ReturnType<FastifySchemaCompiler<unknown>>;
    Object.defineProperty(validate, 'errors', {
      get: () => {
        if (called) errorsReadAfterCall++;
        return lastErrors;
      },
    });
    if (options.schemaEnv) Object.defineProperty(validate, 'schemaEnv', { get: () => ({}) });
    return validate;
  };
  return { compile, calls, errorsReadAfterCall: () => errorsReadAfterCall };
}

async function appWith(compile: FastifySchemaCompiler<unknown>) {
  const app = Fastify();
  app.setValidatorCompiler(compile);
  app.get('/q', { schema: { querystring: { type: 'object' } } }, async (request) => request.query);
  await app.ready();
  return app;
}

describe("Fastify's validator contract that the lazy schema compilers rely on", () => {
  it('with schemaEnv: called with the request as parent, and a root value replaced through it is what the handler sees', async () => {
    const { compile, calls } = compilerWith({ schemaEnv: true });
    const app = await appWith(compile);
    const answer = await app.inject({ method: 'GET', url: '/q?n=3' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ n: 3, replaced: true });
    const context = calls[0]!.context as { parentData: { query: unknown }; parentDataProperty: string };
    expect(context.parentDataProperty).toBe('query');
    expect(context.parentData).toEqual(expect.objectContaining({ query: { n: 3, replaced: true } }));
    await app.close();
  });

  it('without schemaEnv: called with the data alone', async () => {
    const { compile, calls } = compilerWith({ schemaEnv: false });
    const app = await appWith(compile);
    const answer = await app.inject({ method: 'GET', url: '/q?n=3' });
    expect(answer.json()).toEqual({ n: '3' });
    expect(calls[0]!.context).toBeUndefined();
    await app.close();
  });

  it('a false answer: errors read from the function after the call, answered as a 400 naming the field', async () => {
    const { compile, errorsReadAfterCall } = compilerWith({ schemaEnv: true });
    const app = await appWith(compile);
    const answer = await app.inject({ method: 'GET', url: '/q?n=bad' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toContain('must be a number');
    expect(answer.json().message).toContain('n');
    expect(errorsReadAfterCall()).toBeGreaterThan(0);
    await app.close();
  });
});
