import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';

/** One replacement per config topic per this window: two publishers that disagree do not ping-pong at wire speed. */
export const REPLACE_WINDOW_MS = 5_000;

export interface ForeignConfigsOptions {
  /** Wall-clock timers (network time, whatever the simulator's clock does). */
  timers: Clock;
  /** Publishes this gateway's own config on the topic again (retained). */
  republish: (topic: string) => void;
  logger: Logger;
}

/**
 * Home Assistant configs under this gateway's node id that someone else published (a retained fake
 * that points the fan's switch at the heater's command topic, say): each is replaced by the gateway's
 * own at once, then at most once per REPLACE_WINDOW_MS per topic, the last replacement always
 * coming after the last foreign copy, so the broker ends up holding ours. Logged by topic, never
 * by content.
 */
export class ForeignConfigs {
  readonly #options: ForeignConfigsOptions;
  readonly #lastMs = new Map<string, number>();
  readonly #pending = new Map<string, TimerHandle>();

  constructor(options: ForeignConfigsOptions) {
    this.#options = options;
  }

  seen(topic: string, bytes: number): void {
    const { timers, logger } = this.#options;
    const now = timers.now();
    const last = this.#lastMs.get(topic);
    if (last === undefined || now - last >= REPLACE_WINDOW_MS) {
      logger.warn({ topic, bytes }, 'replaced a Home Assistant config under this gateway\'s node id that it did not publish');
      this.#replace(topic, now);
      return;
    }
    if (this.#pending.has(topic)) return;
    this.#pending.set(
      topic,
      timers.setTimeout(() => {
        this.#pending.delete(topic);
        this.#replace(topic, timers.now());
      }, last + REPLACE_WINDOW_MS - now),
    );
  }

  stop(): void {
    for (const timer of this.#pending.values()) this.#options.timers.clearTimeout(timer);
    this.#pending.clear();
  }

  #replace(topic: string, atMs: number): void {
    this.#lastMs.set(topic, atMs);
    this.#options.republish(topic);
  }
}
