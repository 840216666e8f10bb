import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ClimateCurvePoint, ClimateNow, ClimateProgram } from '../contract/climate.ts';
import { Envelope, FailureEnvelope, GreenhouseParams, IsoTimestamp } from '../contract/common.ts';
import { requireWriter } from '../auth/guard.ts';
import { ok } from '../http/reply.ts';
import type { ClimateService } from './climate-service.ts';

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope };
const CurveQuery = Type.Object(
  {
    hours: Type.Integer({ minimum: 1, maximum: 168, default: 24 }),
    /** Where the curve starts (the editor asks from local midnight); default now. */
    from: Type.Optional(IsoTimestamp),
  },
  { additionalProperties: false },
);

/** /api/climate: the program, read by everyone signed in and changed by operators and admins. */
export async function climateRoutes(fastify: FastifyInstance, options: { climate: ClimateService }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { climate } = options;
  const params = GreenhouseParams;

  app.get('/:greenhouseId', { schema: { params, response: { 200: Envelope(Type.Union([ClimateProgram, Type.Null()])), ...failures } } },
    async () => ok(climate.program()));

  app.put('/:greenhouseId', { schema: { params, body: ClimateProgram, response: { 200: Envelope(ClimateProgram), ...failures } }, preValidation: requireWriter() },
    async (request) => ok(climate.put(request.body), 'Climate program saved'));

  app.get('/:greenhouseId/now', { schema: { params, response: { 200: Envelope(ClimateNow), ...failures } } }, async () => ok(climate.now()));

  app.get('/:greenhouseId/curve', { schema: { params, querystring: CurveQuery, response: { 200: Envelope(Type.Array(ClimateCurvePoint)), ...failures } } },
    async (request) => ok(climate.curve(request.query.hours, request.query.from === undefined ? undefined : Date.parse(request.query.from))));
}
