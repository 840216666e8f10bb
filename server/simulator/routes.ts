import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Envelope, FailureEnvelope } from '../contract/common.ts';
import { SimulatorFaultBody, SimulatorSoilBody, SimulatorState, SimulatorTankBody } from '../contract/simulator.ts';
import { requireRole } from '../auth/guard.ts';
import { ok } from '../http/reply.ts';
import type { SimulatorControl } from './simulator-control.ts';

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope };
const StateReply = Envelope(SimulatorState);

/** /api/simulator: admins only; registered only in simulator mode, so on hardware every path is a 404. */
export async function simulatorRoutes(fastify: FastifyInstance, options: { control: SimulatorControl }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { control } = options;
  const admin = { preValidation: requireRole('admin') };

  app.get('/', { schema: { response: { 200: StateReply, ...failures } }, ...admin }, async () => ok(control.state()));

  app.post('/faults', { schema: { body: SimulatorFaultBody, response: { 200: StateReply, ...failures } }, ...admin }, async (request) => {
    const { sensor, sensorId, fault } = request.body;
    const state = control.setFault({ sensor, sensorId }, fault);
    const what = sensorId ?? sensor;
    return ok(state, fault === 'none' ? `${what} fault cleared` : `${what} is now ${fault}`);
  });

  app.post('/tank', { schema: { body: SimulatorTankBody, response: { 200: StateReply, ...failures } }, ...admin }, async (request) =>
    ok(control.setTankLevel(request.body.levelCm), `Tank set to ${request.body.levelCm} cm`),
  );

  app.post('/soil', { schema: { body: SimulatorSoilBody, response: { 200: StateReply, ...failures } }, ...admin }, async (request) =>
    ok(control.setSoilMoisture(request.body.moisturePct), `Soil set to ${request.body.moisturePct} %`),
  );
}
