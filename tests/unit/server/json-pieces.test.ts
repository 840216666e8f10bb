import { describe, expect, it } from 'vitest';
import { jsonArrayInPieces, jsonItems } from '../../../server/http/json-pieces.ts';

const points = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ _id: `DHT11-${from + i}`, value: (from + i) / 3, unit: '°C', note: i % 7 === 0 ? 'quote " and \\ back' : null }));

const piecesOf = async (envelope: { data: readonly unknown[]; message?: string }, parts: unknown[][]) =>
  Buffer.concat(await jsonArrayInPieces(envelope, parts.map((items) => async () => jsonItems(items)))).toString('utf8');

describe('jsonArrayInPieces', () => {
  it('gives, its pieces put together, the JSON of the envelope with every part\'s items in order', async () => {
    const parts = [points(0, 3), [], points(3, 1), points(4, 250), []];
    expect(await piecesOf({ data: [] }, parts)).toBe(JSON.stringify({ data: parts.flat() }));
    const envelope = { success: true, data: [] as unknown[], message: 'a "data":[] inside a message' };
    expect(await piecesOf(envelope, parts)).toBe(JSON.stringify({ ...envelope, data: parts.flat() }));
  });

  it('gives an empty array when no part has items', async () => {
    expect(await piecesOf({ data: [] }, [])).toBe('{"data":[]}');
    expect(await piecesOf({ data: [] }, [[], []])).toBe('{"data":[]}');
  });

  it('makes the parts one after the other, never two at once', async () => {
    const events: string[] = [];
    const part = (name: string) => async () => {
      events.push(`${name} starts`);
      await new Promise((resolve) => setTimeout(resolve, 0));
      events.push(`${name} ends`);
      return jsonItems([name]);
    };
    const pieces = await jsonArrayInPieces({ data: [] }, [part('a'), part('b'), part('c')]);
    expect(events).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
    expect(Buffer.concat(pieces).toString()).toBe('{"data":["a","b","c"]}');
  });
});
