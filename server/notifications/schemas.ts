import Type from 'typebox';
import { Severity } from '../contract/alert.ts';
import { Envelope, FailureEnvelope } from '../contract/common.ts';
import { CHANNEL_ID_PATTERN, ChannelKind, ChannelTestResult, Delivery, NotificationChannel, QuietHours } from '../contract/notification.ts';

export const ChannelParams = Type.Object({ id: Type.String({ pattern: CHANNEL_ID_PATTERN, description: 'channelId' }) });

const fields = {
  kind: ChannelKind,
  // Checked per kind in the service (an http(s) URL, a chat id, an address): 400 naming `target`.
  target: Type.String({ minLength: 1, maxLength: 2000 }),
  minSeverity: Severity,
  quietHours: Type.Union([QuietHours, Type.Null()]),
  secret: Type.Union([Type.String({ maxLength: 512 }), Type.Null()]),
};

export const CreateChannelBody = Type.Object(
  {
    channelId: Type.String({ pattern: CHANNEL_ID_PATTERN }),
    kind: fields.kind,
    target: fields.target,
    minSeverity: fields.minSeverity,
    quietHours: Type.Optional(fields.quietHours),
    secret: Type.Optional(fields.secret),
  },
  { additionalProperties: false },
);

/** Every field optional; `secret` omitted keeps the stored one, null removes it. */
export const UpdateChannelBody = Type.Object(
  {
    kind: Type.Optional(fields.kind),
    target: Type.Optional(fields.target),
    minSeverity: Type.Optional(fields.minSeverity),
    quietHours: Type.Optional(fields.quietHours),
    secret: Type.Optional(fields.secret),
  },
  { additionalProperties: false },
);

export const EmptyBody = Type.Object({}, { additionalProperties: false });

export const LogQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  channelId: Type.Optional(Type.String({ pattern: CHANNEL_ID_PATTERN })),
});

export const ChannelReply = Envelope(NotificationChannel);
export const ChannelListReply = Envelope(Type.Array(NotificationChannel));
export const TestReply = Envelope(ChannelTestResult);
export const LogReply = Envelope(Type.Array(Delivery));
export const DeletedReply = Type.Object({ success: Type.Literal(true), message: Type.String() });

export const failures = {
  400: FailureEnvelope,
  401: FailureEnvelope,
  403: FailureEnvelope,
  404: FailureEnvelope,
  409: FailureEnvelope,
};
