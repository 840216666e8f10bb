// The broker's input reaches mqtt.js in slices with a turn of the event loop between two of them
// (server/mqtt/sliced-input.ts): behaviour, never timing.
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SlicedInput } from '../../../server/mqtt/sliced-input.ts';

/** A socket whose input the test pushes and whose output it collects. */
function fakeSocket() {
  const written: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk);
      callback();
    },
  });
  return { socket, written };
}

const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

describe('SlicedInput', () => {
  it('hands one read on in slices, with a turn of the event loop between two slices', async () => {
    const { socket } = fakeSocket();
    const input = new SlicedInput(socket, { sliceBytes: 4096, maxQueuedBytes: 64 * 1024 });
    const events: string[] = [];
    const received: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      input.on('data', (slice: Buffer) => {
        received.push(slice);
        events.push(`slice ${slice.length}`);
        // Work queued behind this slice (a timer, a sampling tick) runs before the next slice.
        setImmediate(() => events.push('other'));
        if (Buffer.concat(received).length === 20_000) resolve();
      });
    });
    const sent = bytes(20_000);
    socket.push(sent);
    await done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(Buffer.concat(received).equals(sent)).toBe(true);
    expect(events).toEqual(['slice 4096', 'other', 'slice 4096', 'other', 'slice 4096', 'other', 'slice 4096', 'other', 'slice 3616', 'other']);
  });

  it('joins small reads up to a slice', async () => {
    const { socket } = fakeSocket();
    const turns: Array<() => void> = [];
    const input = new SlicedInput(socket, { sliceBytes: 100, maxQueuedBytes: 1000, nextTurn: (turn) => turns.push(turn) });
    const received: Buffer[] = [];
    input.on('data', (slice: Buffer) => received.push(slice));
    for (let i = 0; i < 5; i++) socket.push(bytes(30));
    await new Promise((resolve) => setImmediate(resolve));
    while (turns.length > 0) turns.shift()!();
    expect(received.map((b) => b.length)).toEqual([100, 50]);
  });

  it('pauses the socket while a backlog is queued and resumes it once the backlog is given out', async () => {
    const { socket } = fakeSocket();
    const turns: Array<() => void> = [];
    const input = new SlicedInput(socket, { sliceBytes: 1000, maxQueuedBytes: 3000, nextTurn: (turn) => turns.push(turn) });
    input.on('data', () => undefined);
    socket.push(bytes(5000));
    await new Promise((resolve) => setImmediate(resolve));
    expect(socket.isPaused()).toBe(true);
    turns.shift()!(); // 4000 left: still above the bound
    turns.shift()!(); // 3000 left
    expect(socket.isPaused()).toBe(true);
    turns.shift()!(); // 2000 left: below it
    expect(socket.isPaused()).toBe(false);
  });

  it('passes output to the socket unchanged and ends with the socket', async () => {
    const { socket, written } = fakeSocket();
    const input = new SlicedInput(socket, { sliceBytes: 64, maxQueuedBytes: 128 });
    input.write(Buffer.from('CONNECT'));
    input.write(Buffer.from('PUBLISH'));
    expect(Buffer.concat(written).toString()).toBe('CONNECTPUBLISH');
    const ended = new Promise((resolve) => input.on('end', resolve));
    input.on('data', () => undefined);
    socket.push(bytes(10));
    socket.push(null);
    await ended;
  });

  it('goes with its socket: an error or a close destroys it', async () => {
    const a = fakeSocket();
    const input = new SlicedInput(a.socket, { sliceBytes: 64, maxQueuedBytes: 128 });
    const failed = new Promise<Error>((resolve) => input.on('error', resolve));
    a.socket.destroy(new Error('ECONNRESET'));
    expect((await failed).message).toBe('ECONNRESET');
    expect(input.destroyed).toBe(true);

    const b = fakeSocket();
    const other = new SlicedInput(b.socket, { sliceBytes: 64, maxQueuedBytes: 128 });
    const closed = new Promise((resolve) => other.on('close', resolve));
    b.socket.destroy();
    await closed;
  });

  it('refuses a slice size that would never give anything out', () => {
    expect(() => new SlicedInput(fakeSocket().socket, { sliceBytes: 0, maxQueuedBytes: 10 })).toThrow(RangeError);
  });
});
