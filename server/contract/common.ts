import Type, { type Static, type TSchema } from 'typebox';

/** ISO-8601 timestamp string, as every timestamp on the wire is (docs/decisions.md, Contract). */
export const IsoTimestamp = Type.String({ format: 'date-time' });

/**
 * Text that names something (a device, a location, an alert message): no control characters and no
 * format characters (\p{Cf}: bidirectional overrides and isolates, zero-width characters), which can
 * hide or reorder what a reader sees ("Trojan Source"); no line or paragraph separators either.
 */
export const SAFE_TEXT_PATTERN = '^[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]*$';
export const SafeText = (options: { minLength?: number; maxLength: number }) => Type.String({ ...options, pattern: SAFE_TEXT_PATTERN });

/**
 * A name someone reads (a device's name, its location): safe text with at least one visible
 * character, so "   " or a Hangul filler cannot pass for a name. Spaces (\p{Z}, \s) and the blank
 * letters and symbols (U+115F, U+1160, U+2800, U+3164, U+FFA0) do not count as visible.
 */
export const VISIBLE_TEXT_PATTERN = '^(?=.*[^\\p{Z}\\s\\u115F\\u1160\\u2800\\u3164\\uFFA0])[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]*$';
export const VisibleText = (options: { maxLength: number }) => Type.String({ minLength: 1, ...options, pattern: VISIBLE_TEXT_PATTERN });

/**
 * A device id: it is a segment of MQTT topics (`.../devices/<deviceId>/set`), so no `/`, `#`, `+` or
 * whitespace; letters, digits, `_` and `-` only.
 */
export const DEVICE_ID_PATTERN = '^[A-Za-z0-9_-]+$';
export const isTopicSafeDeviceId = (deviceId: string): boolean => deviceId.length <= 64 && new RegExp(DEVICE_ID_PATTERN).test(deviceId);

export const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const GreenhouseParams = Type.Object({
  greenhouseId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type GreenhouseParams = Static<typeof GreenhouseParams>;

/** Success envelope: `{ success: true, data, message? }`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    success: Type.Literal(true),
    data,
    message: Type.Optional(Type.String()),
  });
}

export const FailureEnvelope = Type.Object({
  success: Type.Literal(false),
  message: Type.String(),
  errors: Type.Optional(
    Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
  ),
});
export type FailureEnvelope = Static<typeof FailureEnvelope>;

