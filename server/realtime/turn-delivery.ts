/**
 * Messages for sockets, delivered one socket per turn of the event loop (docs/performance.md, "A night
 * on the gateway"). A sampling tick raises a handful of events, each for every phone: sent at once,
 * they are a write per event per phone inside the tick's own turn (a fifth of the tick with six
 * phones), while the safety timers wait behind it. Queued here, the tick's turn ends when its control
 * work ends, and each socket's share goes in its own later turn, as one write.
 *
 * A socket's messages leave in the order they were queued; sockets are served in the order their
 * first waiting message came.
 */
export class TurnDelivery<Target> {
  readonly #pending = new Map<Target, Buffer[]>();
  readonly #write: (target: Target, messages: Buffer[]) => void;
  #scheduled: NodeJS.Immediate | null = null;

  /** `write` sends one socket's waiting messages, oldest first. */
  constructor(write: (target: Target, messages: Buffer[]) => void) {
    this.#write = write;
  }

  enqueue(target: Target, message: Buffer): void {
    const waiting = this.#pending.get(target);
    if (waiting) waiting.push(message);
    else this.#pending.set(target, [message]);
    this.#schedule();
  }

  /** Sends what waits for this socket now: before it is closed, so its last messages come first. */
  flush(target: Target): void {
    const waiting = this.#pending.get(target);
    if (!waiting) return;
    this.#pending.delete(target);
    this.#write(target, waiting);
  }

  /** The socket is gone: what waited for it is dropped. */
  forget(target: Target): void {
    this.#pending.delete(target);
  }

  stop(): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    this.#pending.clear();
  }

  #schedule(): void {
    if (this.#scheduled || this.#pending.size === 0) return;
    this.#scheduled = setImmediate(() => {
      this.#scheduled = null;
      const next = this.#pending.keys().next();
      try {
        if (!next.done) this.flush(next.value);
      } finally {
        this.#schedule();
      }
    });
  }
}
