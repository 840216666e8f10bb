import Type, { type Static } from 'typebox';
import { Severity } from './alert.ts';
import { IsoTimestamp } from './common.ts';

/**
 * How alerts leave the gateway besides the dashboard (server/notifications/README.md). A new kind is
 * one entry here and one sender in server/notifications/kinds/.
 */
export const CHANNEL_KINDS = ['webhook', 'ntfy', 'telegram', 'email'] as const;
export const ChannelKind = Type.Union([Type.Literal('webhook'), Type.Literal('ntfy'), Type.Literal('telegram'), Type.Literal('email')]);
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CHANNEL_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';
const HH_MM = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** Gateway local time; `from` later than `to` crosses midnight (22:00-06:00). */
export const QuietHours = Type.Object(
  { from: Type.String({ pattern: HH_MM }), to: Type.String({ pattern: HH_MM }) },
  { additionalProperties: false },
);
export type QuietHours = Static<typeof QuietHours>;

/** A channel as the dashboard sees it: its secret never leaves the gateway, only whether it has one. */
export const NotificationChannel = Type.Object({
  channelId: Type.String(),
  kind: ChannelKind,
  target: Type.String(),
  minSeverity: Severity,
  quietHours: Type.Union([QuietHours, Type.Null()]),
  hasSecret: Type.Boolean(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type NotificationChannel = Static<typeof NotificationChannel>;

export const DELIVERY_REASONS = ['alert', 'escalation', 'test', 'gateway-failure'] as const;
export type DeliveryReason = (typeof DELIVERY_REASONS)[number];
export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);
export type DeliveryStatus = Static<typeof DeliveryStatus>;

export const DeliveryAttempt = Type.Object({ at: IsoTimestamp, ok: Type.Boolean(), detail: Type.Union([Type.String(), Type.Null()]) });
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

/** One message to one channel, from the outbox, with every attempt made so far. */
export const Delivery = Type.Object({
  id: Type.Integer(),
  channelId: Type.String(),
  alertId: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.Literal('alert'), Type.Literal('escalation'), Type.Literal('test'), Type.Literal('gateway-failure')]),
  severity: Severity,
  title: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([IsoTimestamp, Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: IsoTimestamp,
  deliveredAt: Type.Union([IsoTimestamp, Type.Null()]),
  tries: Type.Array(DeliveryAttempt),
});
export type Delivery = Static<typeof Delivery>;

/** What the test button answers: the first attempt's outcome. */
export const ChannelTestResult = Type.Object({ delivered: Type.Boolean(), detail: Type.Union([Type.String(), Type.Null()]), delivery: Delivery });
export type ChannelTestResult = Static<typeof ChannelTestResult>;
