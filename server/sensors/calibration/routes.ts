import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireRole } from '../../auth/guard.ts';
import { LightCalibrationBody, SensorCalibrationView, SoilCalibrationBody } from '../../contract/calibration.ts';
import { Envelope, FailureEnvelope, GreenhouseParams } from '../../contract/common.ts';
import { ok } from '../../http/reply.ts';
import type { CalibrationService } from './calibration-service.ts';

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope, 409: FailureEnvelope };
const SensorParams = Type.Object({ ...GreenhouseParams.properties, sensorId: Type.String({ minLength: 1, maxLength: 64 }) });
const ViewReply = Envelope(SensorCalibrationView);

/**
 * /api/sensors/calibration (docs/irrigation.md, "Calibration"): every signed-in account reads the raw
 * counts; admins calibrate (it changes what every rule and alert reads), as they set device safety.
 */
export async function calibrationRoutes(fastify: FastifyInstance, options: { calibration: CalibrationService }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { calibration } = options;
  const admin = { preValidation: requireRole('admin') };
  app.get('/:greenhouseId', { schema: { params: GreenhouseParams, response: { 200: Envelope(Type.Array(SensorCalibrationView)), ...failures } } }, async () => ok(calibration.list()));
  app.put('/:greenhouseId/:sensorId/soil', { schema: { params: SensorParams, body: SoilCalibrationBody, response: { 200: ViewReply, ...failures } }, ...admin }, async (request) =>
    ok(calibration.setSoil(request.params.sensorId, request.body.dryRaw, request.body.wetRaw), 'Soil probe calibrated'),
  );
  app.put('/:greenhouseId/:sensorId/light', { schema: { params: SensorParams, body: LightCalibrationBody, response: { 200: ViewReply, ...failures } }, ...admin }, async (request) =>
    ok(calibration.setLight(request.params.sensorId, request.body.referenceLux), 'Light sensor calibrated'),
  );
  app.delete('/:greenhouseId/:sensorId', { schema: { params: SensorParams, response: { 200: ViewReply, ...failures } }, ...admin }, async (request) =>
    ok(calibration.reset(request.params.sensorId), 'Calibration reset to the config'),
  );
}
