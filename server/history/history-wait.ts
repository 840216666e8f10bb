import type { Clock } from '../../common/clock.ts';
import { NotYetError } from '../domain/errors.ts';
import type { CatchUpProgress } from './rollup-catch-up.ts';

/**
 * How long a history request waits for the rollups' catch-up before it is told to come back. On a Pi
 * core a catch-up folds about a week of 1 Hz readings a minute (docs/performance.md, "The Now screen
 * during a catch-up"), so after an upgrade or a restore it can outlast the request timeout (60 s):
 * the dashboard is better served by a prompt answer that says how far it is.
 */
export const HISTORY_WAIT_MS = 10_000;
/** Retry-After's bounds: not sooner than this... */
const MIN_RETRY_AFTER_S = 5;
/** ...nor later, whatever the estimate (a dashboard asks again by itself). */
const MAX_RETRY_AFTER_S = 60;

export interface CatchingUp {
  whenCurrent(): Promise<void>;
  progress(): CatchUpProgress | null;
}

/**
 * Resolves once the rollups are current enough to answer from. A catch-up still running after
 * `maxWaitMs` (on the gateway's clock) rejects with a 503 that says how far it is, with Retry-After.
 */
export function waitForHistory(catchUp: CatchingUp, clock: Clock, maxWaitMs = HISTORY_WAIT_MS): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const timer = clock.setTimeout(() => {
      if (settled) return;
      const progress = catchUp.progress();
      // Through in the meantime: whenCurrent resolves on the next turn.
      if (progress === null) return;
      settled = true;
      reject(rebuildingError(progress));
    }, maxWaitMs);
    catchUp.whenCurrent().then(
      () => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(timer);
        resolve();
      },
      (err: unknown) => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * What a history read waits for. A running catch-up first: it folds everything itself, and the held
 * batch's fold (2,000 rows inline) would only hold the loop, 25 ms or more on a Pi core, once per
 * request. Then the held batch is committed and folded (`commitHeld`), so the answer has the newest
 * readings.
 */
export async function readyForHistory(catchUp: CatchingUp, commitHeld: () => void, clock: Clock): Promise<void> {
  await waitForHistory(catchUp, clock);
  commitHeld();
  await waitForHistory(catchUp, clock);
}

/** 'History is being rebuilt from the stored readings (42 % done, about 3 minutes left)...' */
export function rebuildingError(progress: CatchUpProgress): NotYetError {
  const left = progress.leftSeconds === null ? '' : `, about ${durationWords(progress.leftSeconds)} left`;
  const retryAfterS = Math.min(MAX_RETRY_AFTER_S, Math.max(MIN_RETRY_AFTER_S, progress.leftSeconds ?? MIN_RETRY_AFTER_S));
  return new NotYetError(`History is being rebuilt from the stored readings (${progress.donePct} % done${left}); charts return when it is through`, retryAfterS);
}

/** 45 -> '45 seconds'; 200 -> '3 minutes'; 7300 -> '2 hours'. */
export function durationWords(seconds: number): string {
  if (seconds < 1.5) return '1 second';
  if (seconds < 90) return `${Math.round(seconds)} seconds`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} minutes`;
  return `${Math.round(seconds / 3600)} hours`;
}
