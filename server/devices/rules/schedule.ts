import { getTimes } from 'suncalc';
import type { Schedule } from '../../contract/device.ts';
import { localClockMs } from '../../../common/local-clock.ts';

/** Where the greenhouse stands (config `site`), for sunrise/sunset schedules. */
export interface Site {
  latitude: number;
  longitude: number;
}

/** Where `nowMs` falls relative to a schedule window, with the window's ends today, for the reason text. */
export type WindowState =
  | { kind: 'inside' | 'outside'; fromMs: number; toMs: number }
  /** No sunrise or sunset today (polar day or night), or a sun time without a site: the window is empty. */
  | { kind: 'unresolvable'; why: string };

const TIME = /^(\d{2}):(\d{2})$/;
const SUN = /^(sunrise|sunset)([+-]\d{1,3})?$/;

export const usesSun = (schedule: Schedule) => SUN.test(schedule.from) || SUN.test(schedule.to);

/**
 * Epoch ms of one end of a window on the local day that contains `dayMs`: `HH:MM` in the gateway's
 * local time (see localClockMs for the clock changes), `sunrise`/`sunset` ± minutes from suncalc.
 */
export function resolveTime(spec: string, dayMs: number, site: Site | null): number | string {
  const day = new Date(dayMs);
  const clock = TIME.exec(spec);
  if (clock) return localClockMs(day, Number(clock[1]), Number(clock[2]));
  const sun = SUN.exec(spec);
  if (!sun) return `'${spec}' is not HH:MM, sunrise or sunset`;
  if (!site) return `'${spec}' needs the greenhouse's site (Settings > System)`;
  // Local noon picks the sun events of this local day whatever the time zone.
  const noon = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 12);
  const times = getTimes(noon, site.latitude, site.longitude);
  const event = sun[1] === 'sunrise' ? times.sunrise : times.sunset;
  if (!event || Number.isNaN(event.getTime())) return `the sun does not ${sun[1] === 'sunrise' ? 'rise' : 'set'} today at this site`;
  return event.getTime() + Number(sun[2] ?? 0) * 60_000;
}

/**
 * Whether `nowMs` is inside the window. A window whose `from` is after its `to` crosses midnight:
 * 22:00-06:00 is inside from 22:00 to midnight and from midnight to 06:00. Both ends are taken on
 * today's date; for sun times that differs from yesterday's by a minute or two at most.
 */
export function windowAt(schedule: Schedule, nowMs: number, site: Site | null): WindowState {
  const fromMs = resolveTime(schedule.from, nowMs, site);
  const toMs = resolveTime(schedule.to, nowMs, site);
  if (typeof fromMs === 'string') return { kind: 'unresolvable', why: fromMs };
  if (typeof toMs === 'string') return { kind: 'unresolvable', why: toMs };
  const inside = fromMs <= toMs ? nowMs >= fromMs && nowMs < toMs : nowMs >= fromMs || nowMs < toMs;
  return { kind: inside ? 'inside' : 'outside', fromMs, toMs };
}

const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/** "schedule 06:00-20:00" or "schedule sunrise+30 (07:12)-sunset (17:40)", as the control log says it. */
export function describeWindow(schedule: Schedule, state: WindowState): string {
  if (state.kind === 'unresolvable') return `schedule ${schedule.from}-${schedule.to} (${state.why})`;
  // A clock time the clock skipped today says when it really is: "02:30 (03:00, clock change)".
  const end = (spec: string, ms: number) => (!TIME.test(spec) ? `${spec} (${hhmm(ms)})` : hhmm(ms) === spec ? spec : `${spec} (${hhmm(ms)}, clock change)`);
  return `schedule ${end(schedule.from, state.fromMs)}-${end(schedule.to, state.toMs)}`;
}
