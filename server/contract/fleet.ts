import Type, { type Static } from 'typebox';
import { IsoTimestamp } from './common.ts';

/**
 * The MQTT bridge as /api/health reports it (and Settings > System shows it). `broker` never carries
 * credentials. `queued` is what waits for the broker; `dropped` counts events lost to the queue's cap.
 */
export const MqttStatus = Type.Object({
  enabled: Type.Boolean(),
  state: Type.Union([Type.Literal('off'), Type.Literal('connecting'), Type.Literal('connected'), Type.Literal('disconnected')]),
  broker: Type.Union([Type.String(), Type.Null()]),
  /** `<baseTopic>/<greenhouseId>`: every topic of this gateway starts with it. */
  topicRoot: Type.Union([Type.String(), Type.Null()]),
  discovery: Type.Boolean(),
  queued: Type.Integer({ minimum: 0 }),
  dropped: Type.Integer({ minimum: 0 }),
  published: Type.Integer({ minimum: 0 }),
  commandsReceived: Type.Integer({ minimum: 0 }),
  /**
   * Why commands on `devices/+/set` are not listened to (no broker credentials configured: on a broker
   * that lets anyone in, anyone could switch the heater), or null when they are.
   */
  commandsIgnored: Type.Union([Type.String(), Type.Null()]),
  lastConnectedAt: Type.Union([IsoTimestamp, Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  /** When the next connection attempt is due while disconnected (back-off), else null. */
  nextAttemptAt: Type.Union([IsoTimestamp, Type.Null()]),
});
export type MqttStatus = Static<typeof MqttStatus>;
