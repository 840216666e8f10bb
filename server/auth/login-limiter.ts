import type { Clock } from '../../common/clock.ts';
/**
 * Counts failed sign-ins per key (a client, or a client and account) and refuses further attempts once `maxFailures` fall within
 * `windowMs`. Only failures count, so an operator signing in on several devices is never locked out,
 * while a password-guessing client is stopped after a handful of tries.
 */
export class LoginLimiter {
  readonly #failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Seconds until the client may try again, or 0 when it may try now. */
  retryAfterSeconds(client: string): number {
    const recent = this.#recent(client);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.clock.now()) / 1000));
  }

  recordFailure(client: string): void {
    const recent = this.#recent(client);
    recent.push(this.clock.now());
    this.#failures.set(client, recent);
    if (this.#failures.size > 10_000) this.#evictOldest();
  }

  /** Counts one event of a limiter that counts every attempt, not only failures (self-registration). */
  record(client: string): void {
    this.recordFailure(client);
  }

  recordSuccess(client: string): void {
    this.#failures.delete(client);
  }

  #recent(client: string): number[] {
    const cutoff = this.clock.now() - this.windowMs;
    return (this.#failures.get(client) ?? []).filter((t) => t > cutoff);
  }

  // Bounded memory under a flood of distinct addresses: forget the first-inserted clients.
  #evictOldest(): void {
    for (const key of this.#failures.keys()) {
      this.#failures.delete(key);
      if (this.#failures.size <= 5_000) break;
    }
  }
}
