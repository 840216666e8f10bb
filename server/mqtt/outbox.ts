/** One message for the broker. Retained messages are states: only the newest per topic matters. */
export interface OutgoingMessage {
  topic: string;
  payload: string;
  retain: boolean;
}

/** Bytes of events held at most: a slow broker and a burst of answers cannot grow the heap past this. */
export const DEFAULT_EVENT_BYTE_LIMIT = 1024 * 1024;

/**
 * What waits for the broker, bounded whatever the broker does. Retained states coalesce by topic (a
 * newer state replaces the queued one: a slow broker gets the current state, not a history of them);
 * their number is bounded by the devices and sensors that exist. Events (alerts, one-off results)
 * queue in order up to `eventLimit` and `eventByteLimit` (topic and payload); past either the oldest
 * event is dropped and counted. Sampling and
 * control only ever call `push`, which never waits.
 */
export class Outbox {
  readonly #messages = new Map<string, OutgoingMessage>();
  readonly #eventKeys: string[] = [];
  readonly #eventLimit: number;
  readonly #eventByteLimit: number;
  #eventBytes = 0;
  #sequence = 0;
  #dropped = 0;

  constructor(options: { eventLimit: number; eventByteLimit?: number }) {
    this.#eventLimit = options.eventLimit;
    this.#eventByteLimit = options.eventByteLimit ?? DEFAULT_EVENT_BYTE_LIMIT;
  }

  push(message: OutgoingMessage): void {
    if (message.retain) {
      // Delete first so the newest state also takes the newest place in the order.
      this.#messages.delete(`r:${message.topic}`);
      this.#messages.set(`r:${message.topic}`, message);
      return;
    }
    const key = `e:${this.#sequence++}`;
    this.#messages.set(key, message);
    this.#eventKeys.push(key);
    this.#eventBytes += sizeOf(message);
    while (this.#eventKeys.length > this.#eventLimit || (this.#eventBytes > this.#eventByteLimit && this.#eventKeys.length > 0)) {
      const oldest = this.#eventKeys.shift()!;
      this.#eventBytes -= sizeOf(this.#messages.get(oldest)!);
      this.#messages.delete(oldest);
      this.#dropped++;
    }
  }

  /** Bytes of the events waiting (topic and payload, UTF-16 length as an estimate of their UTF-8 size). */
  get eventBytes(): number {
    return this.#eventBytes;
  }

  /** Takes the oldest message, or null when nothing waits. */
  shift(): OutgoingMessage | null {
    const first = this.#messages.entries().next();
    if (first.done) return null;
    const [key, message] = first.value;
    this.#messages.delete(key);
    if (key.startsWith('e:')) {
      this.#eventKeys.splice(this.#eventKeys.indexOf(key), 1);
      this.#eventBytes -= sizeOf(message);
    }
    return message;
  }

  get size(): number {
    return this.#messages.size;
  }

  get dropped(): number {
    return this.#dropped;
  }
}

function sizeOf(message: OutgoingMessage): number {
  return message.topic.length + message.payload.length;
}
