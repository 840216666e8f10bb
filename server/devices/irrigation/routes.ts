import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { Clock } from '../../../common/clock.ts';
import { Envelope, FailureEnvelope } from '../../contract/common.ts';
import { WaterDay } from '../../contract/irrigation.ts';
import { notFound } from '../../domain/errors.ts';
import { ok } from '../../http/reply.ts';
import type { DevicesRepo } from '../devices-repo.ts';
import { DeviceIdParams } from '../schemas.ts';
import { localDayStartMs, waterByDay } from './water-days.ts';

export const WaterQuery = Type.Object({ days: Type.Integer({ minimum: 1, maximum: 90, default: 7 }) });
export const WaterReply = Envelope(Type.Array(WaterDay));
const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope };

export interface WaterRoutesOptions {
  repo: DevicesRepo;
  clock: Clock;
}

/** Every local day of a pump's water over the last `days` days, oldest first, from the control log. */
export function waterOf(repo: DevicesRepo, deviceId: string, days: number, nowMs: number) {
  const device = repo.findPlain(deviceId);
  if (!device) throw notFound(`Device '${deviceId}' not found`);
  // One more day back: a run already open at the first midnight is counted from there.
  const fromMs = localDayStartMs(nowMs) - days * 24 * 3_600_000;
  const switches = repo.stateChangesSince(fromMs, deviceId);
  return waterByDay(switches, { nowMs, days, flowLitresPerMinute: device.flowLitresPerMinute ?? null });
}

/** `GET /api/devices/:deviceId/water?days=N` (docs/irrigation.md): pulses, run time and litres per local day. */
export async function waterRoutes(fastify: FastifyInstance, { repo, clock }: WaterRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/:deviceId/water', { schema: { params: DeviceIdParams, querystring: WaterQuery, response: { 200: WaterReply, ...failures } } }, async (request) =>
    ok(waterOf(repo, request.params.deviceId, request.query.days, clock.now())),
  );
}
