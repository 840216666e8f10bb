import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FailureEnvelope, GreenhouseParams } from '../contract/common.ts';
import { requireWriter } from '../auth/guard.ts';
import { ok } from '../http/reply.ts';
import { DevicesBody, SettingsReply, SystemBody, ThresholdsBody } from './schemas.ts';
import type { SettingsService } from './settings-service.ts';

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope };

/** /api/settings: read by everyone signed in, changed by operators and admins. */
export async function settingsRoutes(fastify: FastifyInstance, options: { settings: SettingsService }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { settings } = options;
  const params = GreenhouseParams;
  const response = { 200: SettingsReply, ...failures };

  app.get('/:greenhouseId', { schema: { params, response } }, async () => ok(settings.get()));

  app.put('/:greenhouseId/thresholds', { schema: { params, body: ThresholdsBody, response }, preValidation: requireWriter() },
    async (request) => ok(settings.updateThresholds(request.body.alertThresholds), 'Alert thresholds updated successfully'));

  app.put('/:greenhouseId/system', { schema: { params, body: SystemBody, response }, preValidation: requireWriter() },
    async (request) => ok(settings.updateSystem(request.body.systemSettings), 'System settings updated successfully'));

  app.put('/:greenhouseId/devices', { schema: { params, body: DevicesBody, response }, preValidation: requireWriter() },
    async (request) => ok(settings.updateDevices(request.body.deviceSettings), 'Device settings updated successfully'));

  app.post('/:greenhouseId/reset', { schema: { params, response }, preValidation: requireWriter() },
    async () => ok(settings.reset(), 'Settings reset to defaults'));
}
