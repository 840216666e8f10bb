import Type, { type Static } from 'typebox';
import { Severity } from './alert.ts';
import { IsoTimestamp } from './common.ts';

const Base64Url = (options: { minLength: number; maxLength: number }) => Type.String({ ...options, pattern: '^[A-Za-z0-9_-]+=*$' });

/**
 * POST /api/push/subscriptions: a browser's PushSubscription (its `toJSON()`: endpoint and keys) and
 * the least severe alert it wants pushed. Re-posting an endpoint updates it (and moves it to the
 * account now signed in on that browser).
 */
export const PushSubscribeBody = Type.Object(
  {
    endpoint: Type.String({ minLength: 12, maxLength: 2048, pattern: '^https://' }),
    /** `expirationTime` as browsers send it (almost always null); not used. */
    expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    keys: Type.Object(
      {
        /** The browser's P-256 public key, uncompressed (65 bytes: 87 characters base64url). */
        p256dh: Base64Url({ minLength: 86, maxLength: 90 }),
        /** The 16-byte authentication secret (22 characters base64url). */
        auth: Base64Url({ minLength: 21, maxLength: 26 }),
      },
      { additionalProperties: false },
    ),
    minSeverity: Severity,
  },
  { additionalProperties: false },
);
export type PushSubscribeBody = Static<typeof PushSubscribeBody>;

export const PushUnsubscribeBody = Type.Object({ endpoint: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false });
export type PushUnsubscribeBody = Static<typeof PushUnsubscribeBody>;

export const PushSubscriptionView = Type.Object({
  endpoint: Type.String(),
  minSeverity: Severity,
  createdAt: IsoTimestamp,
  lastDeliveredAt: Type.Union([IsoTimestamp, Type.Null()]),
  /** Why the last push to it failed, or null. */
  lastError: Type.Union([Type.String(), Type.Null()]),
});
export type PushSubscriptionView = Static<typeof PushSubscriptionView>;

/** GET /api/push: the gateway's VAPID public key (applicationServerKey) and the caller's subscriptions. */
export const PushStatus = Type.Object({
  publicKey: Type.String(),
  subscriptions: Type.Array(PushSubscriptionView),
});
export type PushStatus = Static<typeof PushStatus>;

/** POST /api/push/test: how many of the caller's subscriptions took the test push. */
export const PushTestResult = Type.Object({ delivered: Type.Integer(), failed: Type.Integer() });
export type PushTestResult = Static<typeof PushTestResult>;

/** What a push carries to the service worker (web/public/sw.js shows it as a notification). */
export interface PushMessage {
  title: string;
  body: string;
  severity: Severity | null;
  alertId: string | null;
  /** Where a tap on the notification opens the dashboard. */
  url: string;
  /** Notifications with the same tag replace each other (one per alert). */
  tag: string;
}
