/**
 * What the bridge accepts from the broker, bounded whatever a client on the broker sends (docs/fleet.md):
 * a command is a word (ON, OFF, OPEN, CLOSE), so anything longer is dropped unread; each device's
 * command topic has a token bucket, and all input together another, so a flood costs a counter per
 * message, never a control request, a reply or a republish. Dropped input is counted by reason for
 * /api/metrics.
 */
export interface InputLimits {
  /** Largest command payload: the longest command word with room for blanks. */
  commandBytes: number;
  /** Commands per device topic: a burst, then this many a second. */
  perTopicBurst: number;
  perTopicPerSecond: number;
  /** All input together (commands and Home Assistant's own topics). */
  totalBurst: number;
  totalPerSecond: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = {
  commandBytes: 32,
  perTopicBurst: 10,
  perTopicPerSecond: 2,
  totalBurst: 200,
  totalPerSecond: 50,
};

export type DropReason = 'oversized' | 'rate';

/** A token bucket: `burst` at once, refilled at `perSecond`; the time comes from the caller. */
class TokenBucket {
  #tokens: number;
  #atMs: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    nowMs: number,
  ) {
    this.#tokens = burst;
    this.#atMs = nowMs;
  }

  take(nowMs: number): boolean {
    // A clock that stepped back refills nothing rather than going negative.
    const elapsedS = Math.max(0, nowMs - this.#atMs) / 1000;
    this.#tokens = Math.min(this.burst, this.#tokens + elapsedS * this.perSecond);
    this.#atMs = nowMs;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

export class InputGuard {
  readonly #limits: InputLimits;
  readonly #nowMs: () => number;
  readonly #total: TokenBucket;
  /** One bucket per known device; every unknown device id shares one, so random ids cannot grow the map. */
  readonly #perTopic = new Map<string, TokenBucket>();
  readonly #isKnown: (deviceId: string) => boolean;
  readonly #dropped: Record<DropReason, number> = { oversized: 0, rate: 0 };

  constructor(options: { limits?: Partial<InputLimits>; nowMs: () => number; isKnownDevice: (deviceId: string) => boolean }) {
    this.#limits = { ...DEFAULT_INPUT_LIMITS, ...options.limits };
    this.#nowMs = options.nowMs;
    this.#isKnown = options.isKnownDevice;
    this.#total = new TokenBucket(this.#limits.totalBurst, this.#limits.totalPerSecond, options.nowMs());
  }

  /** Whether a command for `deviceId` of `bytes` may go on; a refusal is counted. */
  admitCommand(deviceId: string, bytes: number): boolean {
    if (bytes > this.#limits.commandBytes) return this.#drop('oversized');
    const now = this.#nowMs();
    const key = this.#isKnown(deviceId) ? deviceId : '';
    let bucket = this.#perTopic.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.#limits.perTopicBurst, this.#limits.perTopicPerSecond, now);
      this.#perTopic.set(key, bucket);
    }
    if (!bucket.take(now)) return this.#drop('rate');
    return this.#total.take(now) || this.#drop('rate');
  }

  /** Whether other input (Home Assistant's status and config topics) may go on. */
  admitOther(bytes: number, maxBytes: number): boolean {
    if (bytes > maxBytes) return this.#drop('oversized');
    return this.#total.take(this.#nowMs()) || this.#drop('rate');
  }

  /** A device removed: its bucket goes too. */
  forget(deviceId: string): void {
    this.#perTopic.delete(deviceId);
  }

  get dropped(): Readonly<Record<DropReason, number>> {
    return this.#dropped;
  }

  #drop(reason: DropReason): false {
    this.#dropped[reason]++;
    return false;
  }
}
