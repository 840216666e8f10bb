import type { QuietHours } from '../contract/notification.ts';

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether `nowMs` falls in the quiet hours, in the gateway's local time (the grower's clock). `from`
 * is inside, `to` is not; a window with `from` after `to` crosses midnight.
 */
export function inQuietHours(quiet: QuietHours | null, nowMs: number): boolean {
  if (!quiet) return false;
  const now = new Date(nowMs);
  const minute = now.getHours() * 60 + now.getMinutes();
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}
