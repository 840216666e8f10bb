import type { Clock } from '../../common/clock.ts';

export interface AccountBackoffOptions {
  /** Failures, from any address, before the account waits between attempts. */
  freeFailures: number;
  /** The first wait; each further failure doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures older than this are forgotten, so the count (and the wait) always comes back to zero. */
  forgetAfterMs: number;
  clock: Clock;
}

/**
 * Failed sign-ins per account across every address (server/auth/README.md, "Sign-in limits"): a
 * guesser spreading over many addresses still meets one account-wide bound. After `freeFailures` the
 * account waits before each attempt, doubling per failure; never a permanent lock, since the wait is
 * capped and failures are forgotten. An attempt refused while waiting is not checked and not counted.
 */
export class AccountBackoff {
  readonly #failures = new Map<string, number[]>();

  constructor(private readonly options: AccountBackoffOptions) {}

  retryAfterSeconds(account: string): number {
    const recent = this.#recent(account);
    const beyond = recent.length - this.options.freeFailures;
    if (beyond < 0) return 0;
    const delayMs = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** beyond);
    const waitMs = recent[recent.length - 1]! + delayMs - this.options.clock.now();
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  recordFailure(account: string): void {
    const recent = this.#recent(account);
    recent.push(this.options.clock.now());
    this.#failures.set(account, recent);
    if (this.#failures.size > 10_000) {
      // Bounded memory under a flood of made-up usernames: forget the first-inserted ones.
      for (const key of this.#failures.keys()) {
        this.#failures.delete(key);
        if (this.#failures.size <= 5_000) break;
      }
    }
  }

  recordSuccess(account: string): void {
    this.#failures.delete(account);
  }

  #recent(account: string): number[] {
    const cutoff = this.options.clock.now() - this.options.forgetAfterMs;
    return (this.#failures.get(account) ?? []).filter((t) => t > cutoff);
  }
}
