import Type from 'typebox';
import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { serializerSchema } from '../../../server/http/serializer-schema.ts';

const IsoTimestamp = Type.String({ format: 'date-time' });
const Reason = Type.Object({ source: Type.Union([Type.Literal('user'), Type.Literal('rule')]), text: Type.String() });
const Shape = Type.Object({
  kind: Type.Union([Type.Literal('FAN'), Type.Literal('HEATER')]),
  stage: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
  threshold: Type.Union([Type.Number({ minimum: -100, maximum: 200 }), Type.Null()]),
  follow: Type.Union([Type.Union([Type.Literal('heat'), Type.Literal('vent')]), Type.Null()]),
  lastActivated: Type.Union([IsoTimestamp, Type.Null()]),
  reason: Type.Union([Reason, Type.Null()]),
  tags: Type.Union([Type.Array(Type.String()), Type.Null()]),
  window: Type.Union([Type.Object({ from: Type.String() }), Type.Object({ sunrise: Type.Boolean() })]),
});

const serialisers = () => ({ original: fastJsonStringify(Shape as never), simplified: fastJsonStringify(serializerSchema(Shape) as never) });

describe('serializerSchema (response unions serialized by type)', () => {
  it('makes unions of literals and nullable values one schema with a list of types', () => {
    const simplified = serializerSchema(Shape) as { properties: Record<string, Record<string, unknown>> };
    const p = simplified.properties;
    expect(p.kind).toEqual({ type: 'string' });
    expect(p.stage).toEqual({ type: 'number' }); // TypeBox types a numeric literal as a number
    expect(p.threshold).toEqual({ type: ['number', 'null'] });
    expect(p.follow).toEqual({ type: ['string', 'null'] });
    expect(p.lastActivated).toEqual({ format: 'date-time', type: ['string', 'null'] });
    expect(p.reason!.type).toEqual(['object', 'null']);
    expect((p.reason!.properties as Record<string, unknown>).source).toEqual({ type: 'string' }); // and inside it
    expect(p.tags).toMatchObject({ type: ['array', 'null'], items: { type: 'string' } });
    // Two object shapes can only be told apart by their properties: left to the validator.
    expect(p.window!.anyOf).toHaveLength(2);
  });

  it('writes the same JSON as the schema it came from', () => {
    const { original, simplified } = serialisers();
    const values = [
      { kind: 'FAN', stage: 2, threshold: 25.5, follow: 'vent', lastActivated: '2026-11-28T02:00:00.000Z', reason: { source: 'rule', text: 'hot' }, tags: ['a', 'b'], window: { from: '06:00' } },
      { kind: 'HEATER', threshold: null, follow: null, lastActivated: null, reason: null, tags: null, window: { sunrise: true } },
      { kind: 'FAN', threshold: -3, follow: 'heat', lastActivated: new Date(Date.UTC(2026, 10, 28)), reason: { source: 'user', text: 'by hand', extra: 'dropped' }, tags: [], window: { from: '22:00' } },
    ];
    for (const value of values) expect(simplified(value)).toBe(original(value));
  });

  it('leaves the schema it is given as it was', () => {
    const before = JSON.stringify(Shape);
    serializerSchema(Shape);
    expect(JSON.stringify(Shape)).toBe(before);
  });
});
