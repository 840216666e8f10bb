import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

const COMMA = Buffer.from(',');

/** One part of an answer's data array as JSON text without its brackets, or null when it has no items. */
export function jsonItems(items: readonly unknown[]): Buffer | null {
  // The brackets are cut from the bytes (a view), not from the text (a copy of it).
  return items.length === 0 ? null : Buffer.from(JSON.stringify(items)).subarray(1, -1);
}

/**
 * The UTF-8 bytes of `JSON.stringify({ ...envelope, data })` in pieces, where `data` is the items of
 * `parts`, in order. Parts are made one after the other, each by one job the caller runs in a turn of
 * its own, which reads its items and encodes them at once: a long answer never holds the loop for more
 * than one part, and never exists whole as objects. A week of every zone is 4,000 points, 1.3 MB of
 * JSON: kept as objects until the end, they were copied by each of the dozens of scavenges that
 * computing them took, and encoding the joined text held a single turn of 20-30 ms at full speed,
 * eight times that on a Pi core (docs/performance.md, "Last Week's answer in pieces").
 */
export async function jsonArrayInPieces(envelope: { data: readonly unknown[] }, parts: ReadonlyArray<() => Promise<Buffer | null>>): Promise<Buffer[]> {
  const shell = JSON.stringify({ ...envelope, data: [] });
  const at = shell.indexOf('"data":[]') + '"data":['.length;
  const pieces: Buffer[] = [Buffer.from(shell.slice(0, at))];
  let items = 0;
  for (const part of parts) {
    const piece = await part();
    if (!piece) continue;
    if (items++ > 0) pieces.push(COMMA);
    pieces.push(piece);
  }
  pieces.push(Buffer.from(shell.slice(at)));
  return pieces;
}

/**
 * Sends JSON pieces as one body with its Content-Length: a stream over the pieces, written as the
 * socket takes them, so an answer kept for several askers is never copied whole for any of them.
 */
export function sendJsonPieces(reply: FastifyReply, pieces: readonly Buffer[]): FastifyReply {
  const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
  reply.type('application/json; charset=utf-8').header('content-length', bytes);
  return reply.send(pieces.length === 1 ? pieces[0] : Readable.from(pieces, { objectMode: false }));
}
