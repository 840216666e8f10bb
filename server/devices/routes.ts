import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FailureEnvelope, GreenhouseParams } from '../contract/common.ts';
import { LockedFailureEnvelope } from '../contract/device.ts';
import { requireRole, requireWriter } from '../auth/guard.ts';
import { invalid, notFound } from '../domain/errors.ts';
import { ok } from '../http/reply.ts';
import type { ControlService } from './control-service.ts';
import type { DeviceRegistry } from './device-registry.ts';
import type { DevicesRepo } from './devices-repo.ts';
import type { QuickActions } from './quick-actions.ts';
import type { PreviewService } from './rules/preview-service.ts';
import {
  AddDeviceBody,
  AutomationBody,
  ControlBody,
  ControlReply,
  DeviceIdParams,
  DeviceListReply,
  DeviceReply,
  EmptyReply,
  FreeOutputsReply,
  LogQuery,
  LogReply,
  PreviewBody,
  PreviewReply,
  QuickActionReply,
  StatsReply,
  UpdateDeviceBody,
} from './schemas.ts';
import { deviceStats } from './stats.ts';

export interface DeviceRoutesOptions {
  repo: DevicesRepo;
  registry: DeviceRegistry;
  control: ControlService;
  quickActions: QuickActions;
  preview: PreviewService;
}

// A 409 may carry the lock that refused a switch-on (contract LockedFailureEnvelope).
const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope, 409: LockedFailureEnvelope, 503: FailureEnvelope };
const actorOf = (request: FastifyRequest) => request.account?.username ?? 'unknown';

/** /api/devices (docs/decisions.md, Contract; docs/product.md §7). Reads for everyone signed in; changes for writers. */
export async function deviceRoutes(fastify: FastifyInstance, options: DeviceRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { repo, registry, control, quickActions, preview } = options;
  const writer = { preValidation: requireWriter() };

  app.get('/:greenhouseId', { schema: { params: GreenhouseParams, response: { 200: DeviceListReply, ...failures } } }, async () =>
    ok(repo.list()),
  );

  app.get('/stats/:greenhouseId', { schema: { params: GreenhouseParams, response: { 200: StatsReply, ...failures } } }, async () =>
    ok(deviceStats(repo.list())),
  );

  app.get('/free-outputs/:greenhouseId', { schema: { params: GreenhouseParams, response: { 200: FreeOutputsReply, ...failures } } }, async () =>
    ok(registry.freeOutputs()),
  );

  app.get('/:deviceId/log', { schema: { params: DeviceIdParams, querystring: LogQuery, response: { 200: LogReply, ...failures } } }, async (request) => {
    if (!repo.find(request.params.deviceId)) throw notFound(`Device '${request.params.deviceId}' not found`);
    const { limit, source, before, beforeId } = request.query;
    if (beforeId !== undefined && before === undefined) throw invalid('beforeId needs before (the timestamp of that entry)', 'beforeId');
    const beforeMs = before === undefined ? undefined : Date.parse(before);
    return ok(repo.controlLog(request.params.deviceId, limit, { source, beforeMs, beforeId: beforeId === undefined ? undefined : Number(beforeId) }));
  });

  app.post('/', { schema: { body: AddDeviceBody, response: { 201: DeviceReply, ...failures } }, ...writer }, async (request, reply) => {
    const { location, powerConsumption, ...rest } = request.body;
    const device = registry.add({ ...rest, location: location ?? 'Main Greenhouse', powerConsumption: powerConsumption ?? 0 });
    return reply.status(201).send(ok(device, 'Device added successfully'));
  });

  app.put('/:deviceId', { schema: { params: DeviceIdParams, body: UpdateDeviceBody, response: { 200: DeviceReply, ...failures } }, ...writer }, async (request) =>
    ok(registry.update(request.params.deviceId, request.body), 'Device updated successfully'),
  );

  app.delete('/:deviceId', { schema: { params: DeviceIdParams, response: { 200: EmptyReply, ...failures } }, ...writer }, async (request) => {
    await registry.remove(request.params.deviceId, actorOf(request));
    return ok(null, 'Device removed');
  });

  app.post('/:deviceId/control', { schema: { params: DeviceIdParams, body: ControlBody, response: { 200: ControlReply, ...failures } }, ...writer }, async (request) => {
    const result = await control.control({ deviceId: request.params.deviceId, action: request.body.action, source: 'user', actor: actorOf(request) });
    return { success: true as const, message: result.message, data: { device: result.device, controlLog: result.controlLog }, controlLog: result.controlLog };
  });

  app.post('/:deviceId/toggle', { schema: { params: DeviceIdParams, response: { 200: ControlReply, ...failures } }, ...writer }, async (request) => {
    const result = await control.control({ deviceId: request.params.deviceId, action: 'toggle', source: 'user', actor: actorOf(request) });
    return { success: true as const, message: result.message, data: { device: result.device, controlLog: result.controlLog }, controlLog: result.controlLog };
  });

  app.post('/:deviceId/automation', { schema: { params: DeviceIdParams, body: AutomationBody, response: { 200: DeviceReply, ...failures } }, ...writer }, async (request) =>
    ok(registry.setAutomation(request.params.deviceId, request.body), 'Automation settings updated successfully'),
  );

  // A read (it touches nothing), open to viewers too: seeing what a rule would do needs no right to change
  // it. But it is seconds of work on a worker: only the granted roles (not an account awaiting approval).
  const reader = { preValidation: requireRole('admin', 'operator', 'viewer') };
  app.post(
    '/:deviceId/automation/preview',
    { schema: { params: DeviceIdParams, body: PreviewBody, response: { 200: PreviewReply, ...failures, 429: FailureEnvelope } }, ...reader },
    async (request, reply) => {
      const gone = new AbortController();
      // The response closes before it was written only when the client went away: stop the worker.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const { deviceId } = request.params;
      return ok(await preview.preview({ deviceId, changes: request.body.automationRules, hours: request.body.hours, accountId: request.account!.id, signal: gone.signal }));
    },
  );

  const quick = { schema: { params: GreenhouseParams, response: { 200: QuickActionReply, ...failures } }, ...writer };

  app.post('/actions/turn-off-all/:greenhouseId', quick, async (request) => {
    const result = await quickActions.turnOffAll(actorOf(request));
    const autoNote = result.autoModeDisabled > 0 ? `; auto mode switched off on ${result.autoModeDisabled}` : '';
    return ok(result, `${result.devicesTurnedOff} device(s) turned off${autoNote}`);
  });

  app.post('/actions/enable-auto/:greenhouseId', quick, async () => {
    const result = quickActions.enableAuto();
    return ok(result, `Auto mode enabled on ${result.devicesEnabled} device(s)`);
  });

  app.post('/actions/optimize-power/:greenhouseId', quick, async (request) => {
    const result = await quickActions.optimizePower(actorOf(request));
    return ok(result, `Power optimized: ${result.devicesTurnedOff} device(s) turned off, ${result.powerSavedW} W saved`);
  });
}
