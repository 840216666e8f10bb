import type { Clock } from '../../common/clock.ts';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { FailureEnvelope, GreenhouseParams } from '../contract/common.ts';
import { HttpError } from '../http/errors.ts';
import { HISTORY_RANGES_HOURS } from '../contract/reading.ts';
import { backupFileName } from '../lifecycle/backup.ts';
import { ExportSlots, type ExportLimits } from './export-slots.ts';
import { readingsCsvStream } from './readings-csv.ts';

export interface AnalyticsRoutesOptions {
  dbPath: string;
  clock: Clock;
  /** Downloads running at once, per account and in all; each holds a read connection and a core on a Pi. */
  exportLimits?: ExportLimits;
}

const ExportQuery = Type.Object({
  // The dashboard's ranges only (HISTORY_RANGES_HOURS); anything else is a 400 naming `hours`. The
  // export reads raw rows, so it covers at most dataRetentionDays whatever the range.
  hours: Type.Optional(Type.Integer({ enum: [...HISTORY_RANGES_HOURS], default: 24 } as Record<string, unknown>)),
});

/** /api/analytics: the Analytics screen's report download. */
export async function analyticsRoutes(fastify: FastifyInstance, options: AnalyticsRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const slots = new ExportSlots(options.exportLimits);

  app.get(
    '/export/:greenhouseId',
    {
      schema: {
        params: GreenhouseParams,
        querystring: ExportQuery,
        response: {
          200: Type.String({ description: 'text/csv: timestamp, sensorType, temperature, humidity, lightIntensity, soilMoisture, waterLevel' }),
          400: FailureEnvelope,
          401: FailureEnvelope,
          404: FailureEnvelope,
          429: FailureEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { greenhouseId } = request.params;
      const hours = request.query.hours ?? 24;
      const toMs = options.clock.now();
      const stamp = backupFileName(toMs).replace(/^greenhouse-|\.db$/g, '');
      // authenticate ran first: every export has its account.
      const slot = slots.take(request.account!.id);
      if ('refused' in slot) throw new HttpError(429, slot.refused);
      let csv: ReturnType<typeof readingsCsvStream>;
      try {
        csv = readingsCsvStream(options.dbPath, greenhouseId, toMs - hours * 3_600_000, toMs);
      } catch (err) {
        slot.release();
        throw err;
      }
      // 'close' comes after the end, an error or the client going away: every path releases the slot.
      csv.once('close', slot.release);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${greenhouseId}-readings-${hours}h-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        // A stream bypasses the response serializer; the 200 schema documents the CSV for readers.
        .send(csv as unknown as string);
    },
  );
}
