/**
 * Time as every part of the gateway sees it. Injected everywhere so tests control time without sleeping
 * and the simulator can run faster than real time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Calls `callback` after `delayMs` of this clock's time. */
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * Milliseconds on a clock that never jumps (performance.now), for rate limits a wall-clock step (NTP
 * setting the time after boot, a manual change) must not stretch or shorten.
 */
export type MonotonicMs = () => number;
export const monotonicMs: MonotonicMs = () => performance.now();

export interface TimerHandle {
  readonly id: number;
}

let nextTimerId = 1;

/** Real time. */
export class SystemClock implements Clock {
  readonly #timers = new Map<number, NodeJS.Timeout>();

  now(): number {
    return Date.now();
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = nextTimerId++;
    const timer = setTimeout(() => {
      this.#timers.delete(id);
      callback();
    }, Math.max(0, delayMs));
    this.#timers.set(id, timer);
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    const timer = this.#timers.get(handle.id);
    if (timer) clearTimeout(timer);
    this.#timers.delete(handle.id);
  }
}

/** Runs `timeScale` times faster than real time, starting at `startMs` (simulator demos, soak tests). */
export class ScaledClock implements Clock {
  readonly #realStartMs = Date.now();
  #startMs: number;
  readonly #timeScale: number;
  readonly #system = new SystemClock();

  constructor(startMs: number, timeScale: number) {
    if (!(timeScale > 0)) throw new RangeError(`timeScale must be > 0, got ${timeScale}`);
    this.#startMs = startMs;
    this.#timeScale = timeScale;
  }

  now(): number {
    return this.#startMs + (Date.now() - this.#realStartMs) * this.#timeScale;
  }

  /**
   * Moves the clock just past `lastMs` when it is behind it. A fast simulated clock restarted from the
   * wall clock would otherwise stamp new records before the ones it wrote in its previous run.
   */
  resumeAfter(lastMs: number | null): void {
    if (lastMs === null) return;
    const behindMs = lastMs - this.now();
    if (behindMs >= 0) this.#startMs += behindMs + 1;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    return this.#system.setTimeout(callback, delayMs / this.#timeScale);
  }

  clearTimeout(handle: TimerHandle): void {
    this.#system.clearTimeout(handle);
  }
}

/** Time that moves only when a test says so. Timers fire in due order during `advance`. */
export class ManualClock implements Clock {
  #nowMs: number;
  readonly #timers = new Map<number, { dueMs: number; callback: () => void }>();

  constructor(startMs = Date.UTC(2026, 5, 1, 12, 0, 0)) {
    this.#nowMs = startMs;
  }

  now(): number {
    return this.#nowMs;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = nextTimerId++;
    this.#timers.set(id, { dueMs: this.#nowMs + Math.max(0, delayMs), callback });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle.id);
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const targetMs = this.#nowMs + ms;
    for (;;) {
      let next: { id: number; dueMs: number } | null = null;
      for (const [id, t] of this.#timers) {
        if (t.dueMs <= targetMs && (!next || t.dueMs < next.dueMs)) next = { id, dueMs: t.dueMs };
      }
      if (!next) break;
      const timer = this.#timers.get(next.id)!;
      this.#timers.delete(next.id);
      this.#nowMs = timer.dueMs;
      timer.callback();
    }
    this.#nowMs = targetMs;
  }

  /** Like `advance`, but lets pending promise callbacks run between timers (async loops). */
  async advanceAsync(ms: number, stepMs = 100): Promise<void> {
    let remaining = ms;
    while (remaining > 0) {
      const step = Math.min(stepMs, remaining);
      this.advance(step);
      remaining -= step;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  pendingTimers(): number {
    return this.#timers.size;
  }
}
