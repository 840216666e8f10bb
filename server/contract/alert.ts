import Type, { type Static } from 'typebox';
import { IsoTimestamp, NullableNumber } from './common.ts';

export const Severity = Type.Union([
  Type.Literal('CRITICAL'),
  Type.Literal('HIGH'),
  Type.Literal('MEDIUM'),
  Type.Literal('LOW'),
]);
export type Severity = Static<typeof Severity>;

/**
 * Alert types the gateway raises itself; POST /api/alerts/:greenhouseId may create others
 * (any UPPER_SNAKE_CASE name).
 */
export const KNOWN_ALERT_TYPES = [
  'TEMPERATURE_HIGH',
  'TEMPERATURE_LOW',
  'HUMIDITY_HIGH',
  'HUMIDITY_LOW',
  'SOIL_MOISTURE_LOW',
  'LIGHT_LOW',
  'WATER_LEVEL_LOW',
  'CO2_HIGH',
  'SENSOR_FAULT',
  'SENSOR_STUCK',
  /** One sensor of a zone failed or is stuck while another still serves the zone. */
  'SENSOR_DEGRADED',
  'PUMP_MAX_RUNTIME',
  'HEATER_MAX_RUNTIME',
  'DRY_RUN_LOCKOUT',
  'INTERLOCK',
  'SENSOR_LOSS',
  'HEATER_CUTOFF',
  'CONDENSATION_RISK',
  /** The configured backup disk was missing, not writable or not mounted: no backup was written (docs/storage.md). */
  'BACKUP_SKIPPED',
  /** A pump's irrigation cycle did not raise the soil moisture: its program pauses until a person resolves this. */
  'IRRIGATION_NO_EFFECT',
  /** A pump's soil probe is lost and it waters on its fallback timer. */
  'IRRIGATION_FALLBACK',
  /** Every delivery attempt to an alert channel has failed for minutes: alerts are not reaching it (server/notifications/README.md). */
  'CHANNEL_FAILING',
  /** The disk the database is on is nearly full: soon nothing can be recorded (docs/storage.md). */
  'STORAGE_LOW',
] as const;
export type KnownAlertType = (typeof KNOWN_ALERT_TYPES)[number];

export const Alert = Type.Object({
  _id: Type.String(),
  greenhouseId: Type.String(),
  alertType: Type.String(),
  severity: Severity,
  message: Type.String(),
  deviceId: Type.Union([Type.String(), Type.Null()]),
  value: Type.Optional(NullableNumber),
  threshold: Type.Optional(NullableNumber),
  isResolved: Type.Boolean(),
  createdAt: IsoTimestamp,
  resolvedAt: Type.Union([IsoTimestamp, Type.Null()]),
  actionTaken: Type.Union([Type.String(), Type.Null()]),
  /** When and by whom it was acknowledged (seen); an unacknowledged CRITICAL is sent again to every channel. */
  acknowledgedAt: Type.Optional(Type.Union([IsoTimestamp, Type.Null()])),
  acknowledgedBy: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Alert = Static<typeof Alert>;

export const AlertStats = Type.Object({
  overall: Type.Object({
    totalAlerts: Type.Integer(),
    totalActive: Type.Integer(),
    totalResolved: Type.Integer(),
  }),
  bySeverity: Type.Array(
    Type.Object({
      _id: Severity,
      total: Type.Integer(),
      active: Type.Integer(),
      resolved: Type.Integer(),
    }),
  ),
});
export type AlertStats = Static<typeof AlertStats>;

export { MANUAL_RESOLUTION } from '../../common/catalogue.ts';
