import Type from 'typebox';
import { Alert, AlertStats, Severity } from '../contract/alert.ts';
import { Envelope, FailureEnvelope, SafeText } from '../contract/common.ts';

export const AlertIdParams = Type.Object({
  // A positive integer (the row id); anything else is a 400 naming `id`, never a 500.
  id: Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'alert _id' }),
});

export const Status = Type.Union([Type.Literal('active'), Type.Literal('resolved')]);

export const ListQuery = Type.Object({
  status: Type.Optional(Status),
  severity: Type.Optional(Severity),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 500 })),
});

export const ExportQuery = Type.Object({
  status: Type.Optional(Status),
  severity: Type.Optional(Severity),
});

export const CreateBody = Type.Object(
  {
    alertType: Type.String({ pattern: '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$', maxLength: 64 }),
    severity: Severity,
    message: SafeText({ minLength: 1, maxLength: 1000 }),
    deviceId: Type.Optional(Type.Union([SafeText({ maxLength: 64 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const ResolveBody = Type.Object(
  { actionTaken: Type.Optional(SafeText({ maxLength: 500 })) },
  { additionalProperties: false },
);

export const AcknowledgeBody = Type.Object({}, { additionalProperties: false });

export const AlertReply = Envelope(Alert);
export const AlertListReply = Envelope(Type.Array(Alert));
export const StatsReply = Type.Object({
  success: Type.Literal(true),
  data: AlertStats,
  // The specification's client reads `stats` at the top level (docs/decisions.md contract table).
  stats: AlertStats,
});
export const DeletedReply = Type.Object({ success: Type.Literal(true), message: Type.String() });
export const NotificationStatusReply = Envelope(Type.Object({ emailConfigured: Type.Boolean() }));

export const failures = {
  400: FailureEnvelope,
  401: FailureEnvelope,
  403: FailureEnvelope,
  404: FailureEnvelope,
  409: FailureEnvelope,
};
