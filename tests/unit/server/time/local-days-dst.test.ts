import { describe, expect, it } from 'vitest';
import { localDayStartMs, waterByDay, type PumpSwitch } from '../../../../server/devices/irrigation/water-days.ts';
import { addTimeBucketRows, emptyHourOfDaySums } from '../../../../server/sensors/hour-of-day.ts';
import { dailyLightIntegral, LIGHT_BUCKET_MS, windowStartMs } from '../../../../server/sensors/light-integral.ts';
import { FIELD_COLUMNS } from '../../../../server/history/rollup-levels.ts';
import type { AggregateRow } from '../../../../server/history/history-queries.ts';
import { inTimeZone, instants, wall } from '../../../support/time-zone.ts';

/*
 * The per-local-day and per-hour-of-day figures across the days the clocks change: the irrigation
 * budget resets once per local day (23 and 25 h days), the water statistics, the light integral and the
 * hourly analytics put everything in exactly one bucket.
 */

const HOUR = 3_600_000;

const DAYS = [
  { zone: 'Europe/Amsterdam', short: '2026-03-29', long: '2026-10-25' },
  { zone: 'America/New_York', short: '2026-03-08', long: '2026-11-01' },
  { zone: 'Australia/Sydney', short: '2026-10-04', long: '2026-04-05' },
  { zone: 'Australia/Lord_Howe', short: '2026-10-04', long: '2026-04-05' },
] as const;

/** Local midnight of a `YYYY-MM-DD`. */
const midnight = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
};

for (const { zone, short, long } of DAYS) {
  describe(zone, () => {
    inTimeZone(zone);
    const halfHour = zone === 'Australia/Lord_Howe';

    for (const [date, kind] of [
      [short, 'short'],
      [long, 'long'],
    ] as const) {
      const lengthH = kind === 'short' ? (halfHour ? 23.5 : 23) : halfHour ? 24.5 : 25;

      it(`${date} (${kind}) is ${lengthH} h long from local midnight to local midnight`, () => {
        const start = midnight(date);
        const next = localDayStartMs(start + 36 * HOUR);
        expect(localDayStartMs(start + 1)).toBe(start);
        expect((next - start) / HOUR).toBe(lengthH);
        expect(localDayStartMs(next - 1)).toBe(start);
      });

      it(`${date}: the water days count a pump running all day as the day's length, a pulse every UTC hour once`, () => {
        const start = midnight(date);
        // A pulse of 10 min at every whole UTC hour, from two days before to two days after.
        const switches: PumpSwitch[] = [];
        for (const t of instants(start - 48 * HOUR, start + 72 * HOUR, HOUR)) switches.push({ on: true, atMs: t }, { on: false, atMs: t + 10 * 60_000 });
        const nowMs = localDayStartMs(start + 36 * HOUR) + 12 * HOUR; // noon-ish the day after
        const days = waterByDay(switches, { nowMs, days: 3, flowLitresPerMinute: 1 });
        expect(days.map((d) => d.date)).toEqual([localDateOf(start - 12 * HOUR), date, localDateOf(start + 30 * HOUR)]);
        // The hours starting in the day: 23, 24 or 25 (Lord Howe's half hour: whole UTC hours at :30).
        const pulsesIn = (from: number, to: number) => switches.filter((s) => s.on && s.atMs >= from && s.atMs < to).length;
        expect(days[1]!.pulses).toBe(pulsesIn(start, localDayStartMs(start + 36 * HOUR)));
        expect(days[1]!.pulses).toBe(Math.round(lengthH));
        expect(days[1]!.runSeconds).toBe(days[1]!.pulses * 600);
      });

      it(`${date}: the daily budget goes back to zero once, at local midnight`, () => {
        const start = midnight(date);
        const switches: PumpSwitch[] = [{ on: true, atMs: start - 30 * HOUR }];
        let last = -1;
        const resets: string[] = [];
        for (const t of instants(start - 12 * HOUR, start + 36 * HOUR, 5 * 60_000)) {
          const used = waterByDay(switches, { nowMs: t, days: 1, flowLitresPerMinute: null })[0]!.runSeconds;
          expect(Number.isFinite(used)).toBe(true);
          if (used < last) resets.push(`${wall(t)} after ${last} s`);
          last = used;
        }
        // A pump running throughout: the budget used is the day so far, reset at each midnight.
        expect(resets).toEqual([`00:00 after ${24 * 3600 - 300} s`, `00:00 after ${lengthH * 3600 - 300} s`]);
      });

      it(`${date}: the light integral gives the day ${lengthH} h of light, every 5-minute bucket once`, () => {
        const start = midnight(date);
        const buckets = [...instants(start - 24 * HOUR, start + 48 * HOUR, LIGHT_BUCKET_MS)].map((atMs) => ({ atMs, meanLux: 2000 }));
        const days = dailyLightIntegral(buckets, LIGHT_BUCKET_MS, 0.0185);
        const day = days.find((d) => d.date === date)!;
        expect(day.hoursOfLight).toBe(lengthH);
        expect(days.reduce((sum, d) => sum + d.hoursOfLight, 0)).toBe(72);
        expect(windowStartMs(start + 30 * HOUR, 2)).toBe(start);
      });

      it(`${date}: hourly analytics fold ${lengthH} h into the 24 hours of the day, each hour once`, () => {
        const start = midnight(date);
        const end = localDayStartMs(start + 36 * HOUR);
        const fields = Object.fromEntries(FIELD_COLUMNS.map((c) => [c, { n: 1, sum: 20, min: 20, max: 20 }])) as AggregateRow['fields'];
        // One row per epoch hour starting in the day (the rollup's grouping).
        const rows: AggregateRow[] = [...instants(Math.ceil(start / HOUR) * HOUR, end, HOUR)].map((atMs) => ({ atMs, n: 1, fields }));
        const sums = addTimeBucketRows(emptyHourOfDaySums(), rows);
        expect(sums.reduce((n, h) => n + h.n, 0)).toBe(rows.length);
        const counts = sums.map((h) => h.n);
        if (!halfHour) {
          // The skipped hour has none, the repeated hour two.
          expect(counts.filter((n) => n === 0)).toHaveLength(kind === 'short' ? 1 : 0);
          expect(counts.filter((n) => n === 2)).toHaveLength(kind === 'long' ? 1 : 0);
        }
      });
    }
  });
}

function localDateOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
