import { existsSync } from 'node:fs';
import type { Clock, MonotonicMs, TimerHandle } from '../../common/clock.ts';
import type { ClockStatus } from '../contract/clock.ts';

/**
 * Whether the wall clock can be trusted (docs/hardware.md, "Time without a clock"). A Raspberry Pi has
 * no real-time clock: until NTP answers it runs on the time saved at shutdown (or 1970), then steps.
 * systemd-timesyncd creates its marker file once it has synchronised the clock, and keeps it until
 * the next boot (/run is a tmpfs); that is what `check` reads. `assume` (the simulator, a laptop)
 * trusts the clock as it is.
 *
 * Steps are told apart from time passing by comparing the wall clock's progress with the monotonic
 * clock's between two polls: they differ only when someone set the time.
 */
export type ClockSyncMode = 'check' | 'assume';

export const TIMESYNCD_MARKER = '/run/systemd/timesync/synchronized';

export interface ClockSyncOptions {
  mode: ClockSyncMode;
  /** systemd-timesyncd's marker (a test points it at a file of its own). */
  markerPath: string;
  /** The gateway's clock: polls are timed on it and the wall clock is read from it. */
  clock: Clock;
  /** A clock that never steps; null turns step detection off (a ManualClock or a scaled simulator clock, whose jumps are on purpose). */
  monotonicMs: MonotonicMs | null;
  /** Between two marker checks; a step is seen at most this long after it happened. */
  pollMs?: number;
  /** Wall and monotonic progress may differ this much between polls before it counts as a step (timer lateness is far below). */
  stepThresholdMs?: number;
  /** Called on a change: synchronised now, or a step of the wall clock (ms, negative: backwards). */
  onSynchronised?: () => void;
  onStep?: (stepMs: number) => void;
}

export const DEFAULT_CLOCK_POLL_MS = 5000;
const DEFAULT_STEP_THRESHOLD_MS = 2000;

export class ClockSync {
  readonly #options: ClockSyncOptions;
  #synchronised: boolean;
  #synchronisedAtMs: number | null = null;
  #steps = 0;
  #lastStep: { stepMs: number; atMs: number } | null = null;
  #timer: TimerHandle | null = null;
  #lastWallMs = 0;
  #lastMonoMs = 0;

  constructor(options: ClockSyncOptions) {
    this.#options = options;
    // Known from the first request on: health and the rules must not start out claiming a good clock.
    this.#synchronised = options.mode === 'assume' || existsSync(options.markerPath);
    if (this.#synchronised) this.#synchronisedAtMs = options.clock.now();
  }

  start(): void {
    if (this.#timer) return;
    this.#mark();
    this.#schedule();
  }

  stop(): void {
    if (this.#timer) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  synchronised(): boolean {
    return this.#synchronised;
  }

  status(): ClockStatus {
    return {
      synchronised: this.#synchronised,
      source: this.#options.mode === 'assume' ? 'assumed' : 'timesyncd',
      synchronisedAt: this.#synchronisedAtMs === null ? null : new Date(this.#synchronisedAtMs).toISOString(),
      steps: this.#steps,
      lastStep: this.#lastStep ? { stepSeconds: Math.round(this.#lastStep.stepMs / 100) / 10, at: new Date(this.#lastStep.atMs).toISOString() } : null,
    };
  }

  /** One poll now (the timer does this every pollMs; tests call it after changing the marker). */
  poll(): void {
    const { clock, monotonicMs, stepThresholdMs = DEFAULT_STEP_THRESHOLD_MS } = this.#options;
    if (monotonicMs) {
      const wallMs = clock.now();
      const monoMs = monotonicMs();
      const stepMs = wallMs - this.#lastWallMs - (monoMs - this.#lastMonoMs);
      if (Math.abs(stepMs) > stepThresholdMs) {
        this.#steps += 1;
        this.#lastStep = { stepMs, atMs: wallMs };
        this.#options.onStep?.(stepMs);
      }
    }
    this.#mark();
    if (!this.#synchronised && this.#options.mode === 'check' && existsSync(this.#options.markerPath)) {
      this.#synchronised = true;
      this.#synchronisedAtMs = clock.now();
      this.#options.onSynchronised?.();
    }
  }

  #mark(): void {
    this.#lastWallMs = this.#options.clock.now();
    this.#lastMonoMs = this.#options.monotonicMs?.() ?? 0;
  }

  #schedule(): void {
    this.#timer = this.#options.clock.setTimeout(() => {
      this.poll();
      this.#schedule();
    }, this.#options.pollMs ?? DEFAULT_CLOCK_POLL_MS);
  }
}
