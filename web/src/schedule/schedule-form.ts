// The schedule editor's model: a window said in clock times and sun events, as a grower says it
// ("from sunrise for 16 h", "from 22:00 to 06:00", "from sunset-30 to 23:00"), to and from the wire
// form `{ from, to }` of HH:MM or sunrise/sunset ± minutes (server/contract/device.ts ScheduleTime).
import type { Schedule } from '../../../server/contract/device.ts';

export type StartKind = 'clock' | 'sunrise' | 'sunset';
export type EndKind = StartKind | 'duration';

export interface ScheduleForm {
  on: boolean;
  startKind: StartKind;
  /** HH:MM when startKind is 'clock'. */
  startClock: string;
  /** Minutes after (+) or before (-) the sun event. */
  startOffsetMin: string;
  endKind: EndKind;
  endClock: string;
  endOffsetMin: string;
  /** Hours after the start, with 'duration'. */
  durationH: string;
}

/** ScheduleTime allows at most three digits of offset minutes. */
export const MAX_OFFSET_MIN = 999;

const CLOCK = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const SUN = /^(sunrise|sunset)([+-][0-9]{1,3})?$/;

const DEFAULT_FORM: ScheduleForm = {
  on: false,
  startKind: 'clock',
  startClock: '06:00',
  startOffsetMin: '0',
  endKind: 'clock',
  endClock: '20:00',
  endOffsetMin: '0',
  durationH: '16',
};

function parseEnd(spec: string): { kind: StartKind; clock: string; offset: number } {
  const sun = SUN.exec(spec);
  if (sun) return { kind: sun[1] as 'sunrise' | 'sunset', clock: '', offset: Number(sun[2] ?? 0) };
  return { kind: 'clock', clock: spec, offset: 0 };
}

/** The editor's fields for a stored schedule. "sunrise" to "sunrise+960" reads back as "from sunrise for 16 h". */
export function formFromSchedule(schedule: Schedule | null): ScheduleForm {
  if (!schedule) return { ...DEFAULT_FORM };
  const from = parseEnd(schedule.from);
  const to = parseEnd(schedule.to);
  const form: ScheduleForm = {
    ...DEFAULT_FORM,
    on: true,
    startKind: from.kind,
    startClock: from.kind === 'clock' ? from.clock : DEFAULT_FORM.startClock,
    startOffsetMin: String(from.offset),
    endKind: to.kind,
    endClock: to.kind === 'clock' ? to.clock : DEFAULT_FORM.endClock,
    endOffsetMin: String(to.offset),
  };
  if (from.kind !== 'clock' && to.kind === from.kind && to.offset > from.offset) {
    form.endKind = 'duration';
    form.durationH = trimNumber((to.offset - from.offset) / 60);
  }
  return form;
}

const trimNumber = (n: number) => String(Math.round(n * 100) / 100);
const sunSpec = (event: 'sunrise' | 'sunset', offsetMin: number) => (offsetMin === 0 ? event : `${event}${offsetMin > 0 ? '+' : ''}${offsetMin}`);
const clockOf = (minutes: number) => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

function offsetOf(text: string, name: string): number | string {
  const value = Number(text.trim() === '' ? '0' : text);
  if (!Number.isInteger(value) || Math.abs(value) > MAX_OFFSET_MIN) return `${name} must be a whole number of minutes between -${MAX_OFFSET_MIN} and ${MAX_OFFSET_MIN}`;
  return value;
}

/** The wire schedule, null when off, or the first problem as a sentence naming the field. */
export function scheduleFromForm(form: ScheduleForm): Schedule | null | string {
  if (!form.on) return null;
  let from: string;
  let startMin: number | null = null;
  if (form.startKind === 'clock') {
    const m = CLOCK.exec(form.startClock);
    if (!m) return 'Start time must be a clock time (HH:MM)';
    from = form.startClock;
    startMin = Number(m[1]) * 60 + Number(m[2]);
  } else {
    const offset = offsetOf(form.startOffsetMin, 'Start offset');
    if (typeof offset === 'string') return offset;
    from = sunSpec(form.startKind, offset);
  }

  let to: string;
  if (form.endKind === 'duration') {
    const hours = Number(form.durationH);
    if (!Number.isFinite(hours) || hours <= 0 || hours >= 24) return 'Duration must be more than 0 and less than 24 hours';
    const minutes = Math.round(hours * 60);
    if (startMin !== null) {
      to = clockOf(startMin + minutes);
    } else {
      const startOffset = Number(form.startOffsetMin || 0);
      const endOffset = startOffset + minutes;
      if (endOffset > MAX_OFFSET_MIN) {
        return `Duration after ${form.startKind} can be at most ${trimNumber((MAX_OFFSET_MIN - startOffset) / 60)} h; end at a clock time instead`;
      }
      to = sunSpec(form.startKind as 'sunrise' | 'sunset', endOffset);
    }
  } else if (form.endKind === 'clock') {
    if (!CLOCK.test(form.endClock)) return 'End time must be a clock time (HH:MM)';
    to = form.endClock;
  } else {
    const offset = offsetOf(form.endOffsetMin, 'End offset');
    if (typeof offset === 'string') return offset;
    to = sunSpec(form.endKind, offset);
  }
  if (from === to) return 'The schedule must not start and end at the same time';
  return { from, to };
}

export const usesSun = (schedule: Schedule) => SUN.test(schedule.from) || SUN.test(schedule.to);
