import Fastify from 'fastify';
import type { FastifySchemaCompiler } from 'fastify';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { handleError } from '../../../server/http/errors.ts';
import { createLazySchemaCompilers, lazySchemaController } from '../../../server/http/lazy-schema-compilers.ts';
import { createValidatorCompiler } from '../../../server/http/validation.ts';
import { turnCounter } from '../../support/turn-counter.ts';

/** The real validator compiler, counting what it compiles. */
function countingCompiler(): { compile: FastifySchemaCompiler<unknown>; compiled: string[] } {
  const real = createValidatorCompiler();
  const compiled: string[] = [];
  return {
    compiled,
    compile: (route) => {
      compiled.push(`${route.method} ${route.url} ${route.httpPart}`);
      return real(route);
    },
  };
}

/** A small app with the gateway's compilers and error handler, and two routes with body, query and response schemas. */
async function appWith(compile: FastifySchemaCompiler<unknown>, onHandler: () => void = () => undefined) {
  const compilers = createLazySchemaCompilers(compile);
  const app = Fastify({ schemaController: lazySchemaController(compilers) });
  app.decorate('compileAllSchemas', compilers.compileAll);
  // As server/app.ts does: a route's first request waits for its schemas.
  app.addHook('preValidation', (request, _reply, done) => {
    const ready = compilers.prepareRoute(request.routeOptions.method, request.routeOptions.url);
    if (ready === null) done();
    else ready.then(() => done(), done);
  });
  app.setErrorHandler(handleError);
  const body = Type.Object({ deviceName: Type.String({ minLength: 1 }), pin: Type.Integer({ minimum: 0 }) });
  const reply = Type.Object({ name: Type.String(), pin: Type.Integer() });
  app.post('/devices', { schema: { body, response: { 200: reply } } }, async (request) => {
    onHandler();
    const { deviceName, pin } = request.body as { deviceName: string; pin: number };
    return { name: deviceName, pin, secret: 'not in the schema' };
  });
  app.get('/history', { schema: { querystring: Type.Object({ hours: Type.Integer({ minimum: 1, default: 24 }) }) } }, async (request) => request.query);
  await app.ready();
  return app;
}

describe('schemas compiled on first use', () => {
  it('compiles nothing at start, then each schema once, on the first request that needs it', async () => {
    const { compile, compiled } = countingCompiler();
    const app = await appWith(compile);
    expect(compiled).toEqual([]);

    await app.inject({ method: 'GET', url: '/history?hours=3' });
    expect(compiled).toEqual(['GET /history querystring']);
    await app.inject({ method: 'GET', url: '/history?hours=4' });
    await app.inject({ method: 'POST', url: '/devices', payload: { deviceName: 'Pump', pin: 17 } });
    await app.inject({ method: 'POST', url: '/devices', payload: { deviceName: 'Fan', pin: 18 } });
    expect(compiled).toEqual(['GET /history querystring', 'POST /devices body']);
    await app.close();
  });

  it('validates, coerces, fills defaults and reports the failing field as the eager compiler does', async () => {
    const { compile } = countingCompiler();
    const app = await appWith(compile);

    // Query strings are coerced to the declared type; a missing value takes its default.
    expect((await app.inject({ method: 'GET', url: '/history?hours=3' })).json()).toEqual({ hours: 3 });
    expect((await app.inject({ method: 'GET', url: '/history' })).json()).toEqual({ hours: 24 });

    const refused = await app.inject({ method: 'GET', url: '/history?hours=0' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('hours');

    // The first request to a route may be a bad one: its errors come from the validator just compiled.
    const badFirst = await app.inject({ method: 'POST', url: '/devices', payload: { deviceName: 'Pump', pin: '17' } });
    expect(badFirst.statusCode).toBe(400);
    expect(badFirst.json().message).toContain('pin');
    const unknownKey = await app.inject({ method: 'POST', url: '/devices', payload: { deviceName: 'Pump', pin: 17, deviceNmae: 'x' } });
    expect(unknownKey.statusCode).toBe(400);
    expect(unknownKey.json().message).toContain('deviceNmae');
    await app.close();
  });

  it('serializes replies by their response schema (keys outside it are left out)', async () => {
    const { compile } = countingCompiler();
    const app = await appWith(compile);
    const created = await app.inject({ method: 'POST', url: '/devices', payload: { deviceName: 'Pump', pin: 17 } });
    expect(created.statusCode).toBe(200);
    expect(created.body).toBe('{"name":"Pump","pin":17}');
    await app.close();
  });

  it('compileAllSchemas compiles what is still waiting, once, and finds a schema that cannot compile', async () => {
    const { compile, compiled } = countingCompiler();
    const app = await appWith(compile);
    await app.inject({ method: 'GET', url: '/history?hours=3' });
    app.compileAllSchemas();
    // Fastify's automatic HEAD route for GET /history has a schema of its own.
    expect(compiled).toEqual(['GET /history querystring', 'POST /devices body', 'HEAD /history querystring']);
    app.compileAllSchemas();
    expect(compiled).toHaveLength(3);
    await app.close();

    const brokenCompilers = createLazySchemaCompilers(createValidatorCompiler());
    const broken = Fastify({ schemaController: lazySchemaController(brokenCompilers) });
    broken.decorate('compileAllSchemas', brokenCompilers.compileAll);
    broken.get('/broken', { schema: { querystring: { type: 'object', properties: { hours: { type: 'not-a-type' } } } } }, async () => ({}));
    await broken.ready(); // starts, as the appliance would
    expect(() => broken.compileAllSchemas()).toThrow(/not-a-type|type/);
    await broken.close();
  });

  it("makes a route's schemas before its first request runs, one per turn of the event loop, once for requests at once", async () => {
    const turns = turnCounter();
    const turnsOfCompiles: number[] = [];
    const real = createValidatorCompiler();
    const handlerTurns: number[] = [];
    const app = await appWith(
      (route) => {
        turnsOfCompiles.push(turns.now());
        return real(route);
      },
      () => handlerTurns.push(turns.now()),
    );
    const startTurn = turns.now();
    const [first, second] = await Promise.all([0, 1].map(() => app.inject({ method: 'POST', url: '/devices', payload: { deviceName: 'Pump', pin: 17 } })));
    turns.stop();
    expect([first!.statusCode, second!.statusCode]).toEqual([200, 200]);
    expect(first!.body).toBe('{"name":"Pump","pin":17}');
    // One body validator for both requests, made in a later turn than the requests arrived in; the
    // serializer of the 200 in turns of its own after it; each request's handler after both, one per turn.
    expect(turnsOfCompiles).toHaveLength(1);
    expect(turnsOfCompiles[0]).toBeGreaterThan(startTurn);
    expect(handlerTurns).toHaveLength(2);
    expect(handlerTurns[0]).toBeGreaterThan(turnsOfCompiles[0]!);
    expect(handlerTurns[1]).toBeGreaterThan(handlerTurns[0]!);
    await app.close();
  });

  it('has nothing to prepare once a route has been used, nor for a route it does not know', async () => {
    const compilers = createLazySchemaCompilers(createValidatorCompiler());
    compilers.validatorCompiler({ schema: Type.Object({ hours: Type.Integer() }), method: 'GET', url: '/history', httpPart: 'querystring' });
    expect(compilers.prepareRoute('GET', '/nowhere')).toBeNull();
    const gone: string[] = [];
    const first = compilers.prepareRoute('GET', '/history');
    const second = compilers.prepareRoute('GET', '/history');
    expect(first).not.toBeNull();
    void first!.then(() => gone.push('first'));
    await second;
    gone.push('second');
    // The second request waited for the same schemas, and went on after the first.
    expect(gone).toEqual(['first', 'second']);
    expect(compilers.prepareRoute('GET', '/history')).toBeNull();
  });
});
