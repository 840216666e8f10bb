import { sendToEveryChannel, type PastOutboxDeps } from './direct-send.ts';
import { storageRefusedMessage } from './message.ts';

/** A storage that keeps failing and recovering is told to the channels at most this often. */
export const STORAGE_NEWS_EVERY_MS = 60 * 60_000;

/**
 * When the database starts refusing writes (`storageWrites`), says so to every channel past the outbox,
 * which lives in that database and cannot hold it (docs/storage.md, "When the storage refuses a write").
 */
export class StorageNews {
  #lastSentMs: number | null = null;
  readonly #sending = new Set<Promise<unknown>>();
  #off: (() => void) | null = null;

  constructor(private readonly deps: PastOutboxDeps) {}

  start(): void {
    this.#off = this.deps.bus.on('storageWrites', 'notifications', ({ error }) => {
      if (error !== null) this.#tell(error);
    });
  }

  /** Stops listening, and waits for what is being sent. */
  async stop(): Promise<void> {
    this.#off?.();
    this.#off = null;
    await Promise.allSettled([...this.#sending]);
  }

  #tell(error: string): void {
    const { clock, logger } = this.deps;
    const nowMs = clock.now();
    if (this.#lastSentMs !== null && nowMs - this.#lastSentMs < STORAGE_NEWS_EVERY_MS) return;
    this.#lastSentMs = nowMs;
    const message = storageRefusedMessage(this.deps.greenhouseId, error, this.deps.publicUrl());
    const sent = sendToEveryChannel(this.deps, message).catch((err: unknown) => logger.error({ err }, 'could not send the news of a storage that refuses writes'));
    this.#sending.add(sent);
    void sent.finally(() => this.#sending.delete(sent));
  }
}
