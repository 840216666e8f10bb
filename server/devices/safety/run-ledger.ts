/** One stretch of on-time: from `onMs` to `offMs`, or still running (null). */
export interface RunInterval {
  onMs: number;
  offMs: number | null;
}

/** A state change as the control log records it (oldest first when loading). */
export interface LedgerEntry {
  deviceId: string;
  on: boolean;
  atMs: number;
}

/** History older than this is of no use to any window (pumpRunWindowMinutes is at most 1440). */
const KEEP_MS = 24 * 3_600_000 + 3_600_000;
/** A budget with less than this left is spent: a one-second pump run waters nothing and wears the relay. */
export const MIN_USEFUL_RUN_MS = 1_000;
export const SWITCH_RATE_WINDOW_MS = 3_600_000;

/** On-time of `intervals` inside [nowMs - windowMs, nowMs] (a running interval counts up to now). */
export function onTimeInWindowMs(intervals: readonly RunInterval[], nowMs: number, windowMs: number): number {
  const from = nowMs - windowMs;
  let total = 0;
  for (const { onMs, offMs } of intervals) {
    const end = Math.min(offMs ?? nowMs, nowMs);
    const start = Math.max(onMs, from);
    if (end > start) total += end - start;
  }
  return total;
}

/**
 * When an idle device's budget has at least MIN_USEFUL_RUN_MS again: the window slides forward and its
 * oldest on-time drops out of it. Null when it is available now.
 */
export function budgetAvailableAtMs(intervals: readonly RunInterval[], nowMs: number, windowMs: number, budgetMs: number): number | null {
  const excess = onTimeInWindowMs(intervals, nowMs, windowMs) - (budgetMs - MIN_USEFUL_RUN_MS);
  if (excess <= 0) return null;
  let dropped = 0;
  for (const { onMs, offMs } of [...intervals].sort((a, b) => a.onMs - b.onMs)) {
    const start = Math.max(onMs, nowMs - windowMs);
    const end = Math.min(offMs ?? nowMs, nowMs);
    if (end <= start) continue;
    if (dropped + (end - start) >= excess) return start + (excess - dropped) + windowMs;
    dropped += end - start;
  }
  return nowMs + windowMs;
}

/**
 * What each device ran and when it was switched on, kept in memory for the run budgets, minimum off
 * times and switch-rate limits. Loaded from the control log at start, so a restart resets none of them.
 */
export class RunLedger {
  readonly #runs = new Map<string, RunInterval[]>();
  readonly #switchOns = new Map<string, number[]>();
  readonly #lastOffMs = new Map<string, number>();

  /**
   * Replays control-log entries, oldest first. A run still open at the end was cut by a stop or a crash
   * (the outputs went off then, at a moment the log does not know): it is counted up to `untilMs`, the
   * conservative side for a budget.
   */
  load(entries: readonly LedgerEntry[], untilMs: number): void {
    for (const entry of entries) this.record(entry.deviceId, entry.on, entry.atMs);
    for (const [deviceId, runs] of this.#runs) {
      const open = runs.at(-1);
      if (open && open.offMs === null) {
        open.offMs = Math.max(open.onMs, untilMs);
        this.#lastOffMs.set(deviceId, open.offMs);
      }
    }
  }

  /** A device's state became `on` at `atMs` (repeated states are ignored). */
  record(deviceId: string, on: boolean, atMs: number): void {
    const runs = this.#runs.get(deviceId) ?? [];
    const open = runs.at(-1)?.offMs === null ? runs.at(-1)! : null;
    if (on && !open) {
      runs.push({ onMs: atMs, offMs: null });
      const ons = this.#switchOns.get(deviceId) ?? [];
      ons.push(atMs);
      this.#switchOns.set(deviceId, ons.filter((t) => t > atMs - KEEP_MS));
    } else if (!on && open) {
      open.offMs = atMs;
      this.#lastOffMs.set(deviceId, atMs);
    }
    this.#runs.set(deviceId, runs.filter((r) => r.offMs === null || r.offMs > atMs - KEEP_MS));
  }

  forget(deviceId: string): void {
    this.#runs.delete(deviceId);
    this.#switchOns.delete(deviceId);
    this.#lastOffMs.delete(deviceId);
  }

  runs(deviceId: string): readonly RunInterval[] {
    return this.#runs.get(deviceId) ?? [];
  }

  lastOffMs(deviceId: string): number | null {
    return this.#lastOffMs.get(deviceId) ?? null;
  }

  /** Switch-ons within the hour before `nowMs`, oldest first. */
  switchOnsInHour(deviceId: string, nowMs: number): number[] {
    return (this.#switchOns.get(deviceId) ?? []).filter((t) => t > nowMs - SWITCH_RATE_WINDOW_MS);
  }
}
