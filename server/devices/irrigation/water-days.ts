import type { WaterDay } from '../../contract/irrigation.ts';
import { localDateText } from '../../time/local-date.ts';

/** One switch of a pump, as the control log records it (oldest first). */
export interface PumpSwitch {
  on: boolean;
  atMs: number;
}

/** Local midnight (the gateway's time zone: a grower's day) at or before `ms`. */
export function localDayStartMs(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/**
 * Water per local day over the last `days` days (today included, oldest first): switch-ons counted on
 * the day they began, run time split at midnight, litres = run minutes × flow. A run still open counts
 * up to now. `switches` may start before the first day: a run already open then is counted from midnight.
 */
export function waterByDay(switches: readonly PumpSwitch[], options: { nowMs: number; days: number; flowLitresPerMinute: number | null }): WaterDay[] {
  const { nowMs, days, flowLitresPerMinute } = options;
  const starts: number[] = [];
  let dayStart = localDayStartMs(nowMs);
  for (let i = 0; i < days; i++) {
    starts.unshift(dayStart);
    // A day back from midnight, then to that day's midnight (23 or 25 h across a DST change).
    dayStart = localDayStartMs(dayStart - 1);
  }
  const rows = starts.map((start, i) => ({ start, end: starts[i + 1] ?? Number.POSITIVE_INFINITY, pulses: 0, runMs: 0 }));
  const firstMs = starts[0]!;
  const addRun = (fromMs: number, toMs: number) => {
    for (const row of rows) {
      const a = Math.max(fromMs, row.start, firstMs);
      const b = Math.min(toMs, row.end, nowMs);
      if (b > a) row.runMs += b - a;
    }
  };
  let onSinceMs: number | null = null;
  for (const s of switches) {
    if (s.on && onSinceMs === null) {
      onSinceMs = s.atMs;
      const row = rows.find((r) => s.atMs >= r.start && s.atMs < r.end);
      if (row) row.pulses++;
    } else if (!s.on && onSinceMs !== null) {
      addRun(onSinceMs, s.atMs);
      onSinceMs = null;
    }
  }
  if (onSinceMs !== null) addRun(onSinceMs, nowMs);
  return rows.map((r) => {
    const runSeconds = Math.round(r.runMs / 100) / 10;
    return {
      date: localDateText(r.start),
      pulses: r.pulses,
      runSeconds,
      litres: flowLitresPerMinute === null ? null : Math.round((runSeconds / 60) * flowLitresPerMinute * 100) / 100,
    };
  });
}
