// Dependency-free on purpose: the gateway (schedules, quiet hours, climate periods) and the dashboard
// (a schedule's times today) both import it, so the dashboard shows the times the gateway will use.

/**
 * Epoch ms of the local clock time `hour:minute` on the local day of `day`. A clock change makes a time
 * happen twice or not at all (docs/decisions.md, "Clock changes"):
 * - twice (the hour repeated when the clocks go back): the first occurrence, as the Date constructor
 *   gives it, so a window ends or a period starts once and does not come back an hour later;
 * - not at all (the hour skipped when the clocks go forward): the moment the clock jumps, e.g. 02:30 on
 *   spring-forward night in Amsterdam is 03:00 CEST (01:00Z). The Date constructor would move it on by
 *   the length of the jump (03:30), which leaves a heater on or off half an hour longer and puts 02:30
 *   after 03:15, so a window 02:30-03:15 would read as crossing midnight and be inside all day.
 */
export function localClockMs(day: Date, hour: number, minute: number): number {
  const ms = new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour, minute).getTime();
  const got = new Date(ms);
  if (got.getHours() === hour && got.getMinutes() === minute) return ms;
  // Skipped: `ms` lies after the jump by as much as the wall clock moved on. The jump is the first
  // instant with the offset `ms` has; the offset before it holds an hour (at most a few) earlier.
  let before = ms - ((got.getHours() - hour) * 60 + (got.getMinutes() - minute) + 24 * 60 * (got.getDate() === day.getDate() ? 0 : 1)) * 60_000;
  let after = ms;
  const offset = got.getTimezoneOffset();
  if (new Date(before).getTimezoneOffset() === offset) return ms; // not a clock change after all: keep the constructor's answer
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (new Date(mid).getTimezoneOffset() === offset) after = mid;
    else before = mid;
  }
  return after;
}
