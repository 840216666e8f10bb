import type { QuietHours } from '../contract/notification.ts';
import { localClockMs } from '../../common/local-clock.ts';

const clockOf = (hhmm: string): [number, number] => [Number(hhmm.slice(0, 2)), Number(hhmm.slice(3, 5))];

/**
 * Whether `nowMs` falls in the quiet hours, in the gateway's local time (the grower's clock). `from`
 * is inside, `to` is not; a window with `from` after `to` crosses midnight.
 *
 * Both ends are instants on today's local date (localClockMs), not minutes of the wall clock: when the
 * clocks go back, 02:00-03:00 happens twice, and a wall-clock test would end quiet hours `to: 02:30` at
 * the first 02:30 and start them again at the second 02:00 (and an alert then is not sent at all). An
 * end in the repeated hour is its first occurrence, an end in the skipped hour the moment the clock
 * jumps (docs/decisions.md, "Clock changes").
 */
export function inQuietHours(quiet: QuietHours | null, nowMs: number): boolean {
  if (!quiet) return false;
  // Refused when stored (channel-service.ts); read as before should one be there: the whole day.
  if (quiet.from === quiet.to) return true;
  const day = new Date(nowMs);
  const from = localClockMs(day, ...clockOf(quiet.from));
  const to = localClockMs(day, ...clockOf(quiet.to));
  return quiet.from < quiet.to ? nowMs >= from && nowMs < to : nowMs >= from || nowMs < to;
}
