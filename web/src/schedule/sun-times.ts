// Today's times of a schedule window, as the gateway will resolve them: HH:MM in local time, and
// sunrise/sunset ± minutes from suncalc at the greenhouse's site (the same library and the same local-
// noon rule as server/devices/rules/schedule.ts). The phone's time zone stands in for the gateway's.
import { getTimes } from 'suncalc';
import type { Schedule } from '../../../server/contract/device.ts';
import { formatClock } from '../format.ts';
import { localClockMs } from '../../../common/local-clock.ts';

export interface Site {
  latitude: number;
  longitude: number;
}

const CLOCK = /^(\d{2}):(\d{2})$/;
const SUN = /^(sunrise|sunset)([+-]\d{1,3})?$/;

/** Epoch ms of one end on the local day of `dayMs`, or a sentence saying why it has none. */
export function resolveEnd(spec: string, dayMs: number, site: Site | null): number | string {
  const day = new Date(dayMs);
  const clock = CLOCK.exec(spec);
  // A time the clock skips or repeats today as the gateway takes it (common/local-clock.ts).
  if (clock) return localClockMs(day, Number(clock[1]), Number(clock[2]));
  const sun = SUN.exec(spec);
  if (!sun) return `'${spec}' is not a time`;
  if (!site) return 'the greenhouse location is not set (Settings, System)';
  const times = getTimes(new Date(day.getFullYear(), day.getMonth(), day.getDate(), 12), site.latitude, site.longitude);
  const event = sun[1] === 'sunrise' ? times.sunrise : times.sunset;
  if (!event || Number.isNaN(event.getTime())) return `the sun does not ${sun[1] === 'sunrise' ? 'rise' : 'set'} today at this site`;
  return event.getTime() + Number(sun[2] ?? 0) * 60_000;
}

/** "today 07:17-23:17", or why today's window cannot be worked out. */
export function todayWindow(schedule: Schedule, site: Site | null, nowMs: number): { text: string; ok: boolean } {
  const from = resolveEnd(schedule.from, nowMs, site);
  const to = resolveEnd(schedule.to, nowMs, site);
  if (typeof from === 'string') return { text: `Today's times unknown: ${from}`, ok: false };
  if (typeof to === 'string') return { text: `Today's times unknown: ${to}`, ok: false };
  const crossesMidnight = to <= from;
  // A clock time the clock skips today (02:30 on the night it jumps to 03:00) is not the one typed.
  const moved = [schedule.from, schedule.to].some((spec, i) => {
    const clock = CLOCK.exec(spec);
    const at = new Date(i === 0 ? from : to);
    return clock !== null && (at.getHours() !== Number(clock[1]) || at.getMinutes() !== Number(clock[2]));
  });
  const notes = [crossesMidnight ? 'ends the next morning' : null, moved ? 'the clock changes today' : null].filter((n) => n !== null);
  return { text: `today ${formatClock(from)}-${formatClock(to)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`, ok: true };
}
