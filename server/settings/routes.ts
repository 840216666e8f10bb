import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FailureEnvelope, GreenhouseParams } from '../contract/common.ts';
import { requireRole, requireWriter } from '../auth/guard.ts';
import { ok } from '../http/reply.ts';
import { DevicesBody, SettingsReply, SystemBody, ThresholdsBody } from './schemas.ts';
import type { DeviceChanges, SettingsService, SystemChanges, ThresholdChanges } from './settings-service.ts';

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope };

/** /api/settings: read by everyone signed in; thresholds changed by operators, the rest by admins. */
export async function settingsRoutes(fastify: FastifyInstance, options: { settings: SettingsService }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { settings } = options;
  const params = GreenhouseParams;
  const response = { 200: SettingsReply, ...failures };
  // docs/decisions.md, Users and roles: operators change alert thresholds; system settings, device safety
  // settings and reset are the admin's (a sign-up must never be able to clear the pump's limits).
  const operator = { preValidation: requireWriter() };
  const admin = { preValidation: requireRole('admin') };

  app.get('/:greenhouseId', { schema: { params, response } }, async () => ok(settings.get()));

  app.put('/:greenhouseId/thresholds', { schema: { params, body: ThresholdsBody, response }, ...operator },
    async (request) => ok(settings.updateThresholds(request.body.alertThresholds as ThresholdChanges), 'Alert thresholds updated successfully'));

  app.put('/:greenhouseId/system', { schema: { params, body: SystemBody, response }, ...admin },
    async (request) => ok(settings.updateSystem(request.body.systemSettings as SystemChanges), 'System settings updated successfully'));

  app.put('/:greenhouseId/devices', { schema: { params, body: DevicesBody, response }, ...admin },
    async (request) => ok(settings.updateDevices(request.body.deviceSettings as DeviceChanges), 'Device settings updated successfully'));

  app.post('/:greenhouseId/reset', { schema: { params, response }, ...admin },
    async () => ok(settings.reset(), 'Settings reset to defaults'));
}
