import Type, { type Static } from 'typebox';
import { Envelope, FailureEnvelope } from '../contract/common.ts';
import { HISTORY_RANGES_HOURS, HourlyBucket, LightIntegralDay, Reading, SensorInstance, SensorStats, SensorStatus, SensorType } from '../contract/reading.ts';
import { MAX_LIGHT_INTEGRAL_DAYS } from './light-integral.ts';

/** The dashboard's ranges (docs/product.md §9's five, 30 days and a year); anything else is a 400 naming `hours`. */
const Hours = Type.Integer({ enum: [...HISTORY_RANGES_HOURS], default: 24, description: `one of ${HISTORY_RANGES_HOURS.join(', ')}` });

export const HoursQuery = Type.Object({ hours: Type.Optional(Hours) }, { additionalProperties: false });
export type HoursQuery = Static<typeof HoursQuery>;

export const HistoricalQuery = Type.Object(
  { hours: Type.Optional(Hours), sensorType: Type.Optional(SensorType) },
  { additionalProperties: false },
);
export type HistoricalQuery = Static<typeof HistoricalQuery>;

/** A latest reading with its derived status (docs/product.md §3: online, warning, offline). */
export const LatestReading = Type.Object({ ...Reading.properties, status: SensorStatus });

/** 503: history while the rollups catch up (server/history/history-wait.ts). */
export const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope, 503: FailureEnvelope };

export const LatestReply = Envelope(Type.Array(LatestReading));
export const InstancesReply = Envelope(Type.Array(SensorInstance));
export const HistoricalReply = Envelope(Type.Array(Reading));
export const StatsReply = Envelope(Type.Array(SensorStats));
export const HourlyReply = Envelope(Type.Array(HourlyBucket));

export const LightIntegralQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIGHT_INTEGRAL_DAYS, default: 7 })) },
  { additionalProperties: false },
);
export const LightIntegralReply = Envelope(Type.Array(LightIntegralDay));
