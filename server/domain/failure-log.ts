import type { Logger } from 'pino';

/**
 * A failure that would repeat at every tick, logged once when it starts and once when it ends, per
 * key: the journal on the SD card says what broke and when, not the same line at every tick.
 */
export class FailureLog {
  readonly #failing = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** Logs (error) the first failure of `key` since it last worked. */
  failed(key: string, err: unknown, message: string, fields: Record<string, unknown> = {}): void {
    if (this.#failing.has(key)) return;
    this.#failing.add(key);
    this.logger.error({ err, ...fields }, message);
  }

  /** Logs (info) that `key` works again, when it had failed. */
  worked(key: string, message: string, fields: Record<string, unknown> = {}): void {
    if (this.#failing.delete(key)) this.logger.info(fields, message);
  }
}
