import { Duplex } from 'node:stream';
import type { MqttClient } from 'mqtt';
import type { ConnectFn } from './connection.ts';

export interface SlicedInputOptions {
  /** Bytes handed to the MQTT parser per turn of the event loop. */
  sliceBytes: number;
  /** Bytes held here before the socket is paused (TCP then pushes back on the broker). */
  maxQueuedBytes: number;
  /** Runs `turn` on a later turn of the event loop (default: setImmediate, after pending I/O and timers). */
  nextTurn?: (turn: () => void) => void;
}

/** A few hundred small messages per turn: on a Pi core (docs/performance.md) that stays within a few ms. */
export const DEFAULT_SLICE_BYTES = 4096;
export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024;

/**
 * The broker's socket as mqtt.js sees it, its input given out in slices of `sliceBytes` with a turn of
 * the event loop between two slices. mqtt.js parses whatever one read brings in one go and handles every
 * message of it before it returns (its packet queue advances by process.nextTick), so a 64 KiB read of
 * small publishes, thousands of messages, held the loop that sampling, rules and the safety timers run
 * on. Output goes to the socket unchanged.
 */
export class SlicedInput extends Duplex {
  readonly #socket: Duplex;
  readonly #sliceBytes: number;
  readonly #maxQueuedBytes: number;
  readonly #nextTurn: (turn: () => void) => void;
  readonly #queue: Buffer[] = [];
  #queuedBytes = 0;
  #scheduled = false;
  /** The reader wants more (push returned true, or _read came since). */
  #wanted = true;
  #ended = false;

  constructor(socket: Duplex, options: SlicedInputOptions) {
    super({ allowHalfOpen: false });
    if (!(options.sliceBytes > 0)) throw new RangeError('sliceBytes must be positive');
    this.#socket = socket;
    this.#sliceBytes = options.sliceBytes;
    this.#maxQueuedBytes = Math.max(options.maxQueuedBytes, options.sliceBytes);
    this.#nextTurn = options.nextTurn ?? ((turn) => setImmediate(turn));
    socket.on('data', (chunk: Buffer) => {
      this.#queue.push(chunk);
      this.#queuedBytes += chunk.length;
      if (this.#queuedBytes >= this.#maxQueuedBytes) socket.pause();
      this.#schedule();
    });
    socket.on('end', () => {
      this.#ended = true;
      this.#schedule();
    });
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => {
      // Input already queued came from a connection that is gone: mqtt.js starts a fresh one.
      if (!this.destroyed) this.destroy();
    });
    socket.on('drain', () => this.emit('drain'));
  }

  /** Node's socket API that mqtt.js or its TLS/websocket builders may call through the stream. */
  setNoDelay(noDelay?: boolean): this {
    (this.#socket as Partial<{ setNoDelay(v?: boolean): void }>).setNoDelay?.(noDelay);
    return this;
  }

  override _read(): void {
    this.#wanted = true;
    this.#schedule();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.#socket.write(chunk, encoding)) callback();
    else this.#socket.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#socket.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#socket.destroy(error ?? undefined);
    callback(error);
  }

  #schedule(): void {
    if (this.#scheduled || this.destroyed) return;
    this.#scheduled = true;
    this.#nextTurn(() => {
      this.#scheduled = false;
      this.#deliverOneSlice();
    });
  }

  /** One slice per turn; the next turn is asked for only while there is more and the reader wants it. */
  #deliverOneSlice(): void {
    if (this.destroyed || !this.#wanted) return;
    const slice = this.#takeSlice();
    if (slice) {
      this.#wanted = this.push(slice);
      if (this.#queuedBytes < this.#maxQueuedBytes && this.#socket.isPaused()) this.#socket.resume();
      if (this.#queuedBytes > 0 || this.#ended) this.#schedule();
      return;
    }
    if (this.#ended) this.push(null);
  }

  /** Up to sliceBytes from the front of the queue, small reads joined. */
  #takeSlice(): Buffer | null {
    const parts: Buffer[] = [];
    let bytes = 0;
    while (bytes < this.#sliceBytes && this.#queue.length > 0) {
      const head = this.#queue[0]!;
      const room = this.#sliceBytes - bytes;
      if (head.length <= room) {
        parts.push(head);
        this.#queue.shift();
        bytes += head.length;
      } else {
        parts.push(head.subarray(0, room));
        this.#queue[0] = head.subarray(room);
        bytes += room;
      }
    }
    if (bytes === 0) return null;
    this.#queuedBytes -= bytes;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
  }
}

/** How mqtt.js builds a connection's stream (a private field of its client, read once per connect). */
type StreamBuilder = (client: MqttClient) => Duplex;

/**
 * `connect` whose clients read the broker through SlicedInput. The client is made with
 * `manualConnect`, its stream builder wrapped, then connected: every connection this client opens is
 * sliced, whatever the protocol (mqtt, mqtts, ws) built the socket.
 */
export function withSlicedInput(connect: ConnectFn, options: Partial<SlicedInputOptions> = {}): ConnectFn {
  const sliced: SlicedInputOptions = { sliceBytes: DEFAULT_SLICE_BYTES, maxQueuedBytes: DEFAULT_MAX_QUEUED_BYTES, ...options };
  return (url, clientOptions) => {
    const client = connect(url, { ...clientOptions, manualConnect: true });
    const internals = client as unknown as { streamBuilder: StreamBuilder };
    const build = internals.streamBuilder;
    internals.streamBuilder = (c) => new SlicedInput(build(c), sliced);
    if (!clientOptions.manualConnect) client.connect();
    return client;
  };
}
