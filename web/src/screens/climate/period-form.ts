// The editor's rows as typed (strings) and the program they make; pure, unit-tested.
import type { ClimatePeriod, ClimateProgram, WindowSafePosition } from '../../../../server/contract/climate.ts';

export interface PeriodRow {
  start: string;
  heatBelowC: string;
  ventAboveC: string;
  humidityAbovePct: string;
  rampMinutes: string;
}

export const toRow = (p: ClimatePeriod): PeriodRow => ({
  start: p.start,
  heatBelowC: String(p.heatBelowC),
  ventAboveC: String(p.ventAboveC),
  humidityAbovePct: p.humidityAbovePct === null || p.humidityAbovePct === undefined ? '' : String(p.humidityAbovePct),
  rampMinutes: String(p.rampMinutes),
});

/** A new greenhouse starts from a day and a night, which the grower then changes. */
export const STARTER_ROWS: PeriodRow[] = [
  { start: 'sunrise+30', heatBelowC: '20', ventAboveC: '25', humidityAbovePct: '85', rampMinutes: '60' },
  { start: 'sunset', heatBelowC: '16', ventAboveC: '21', humidityAbovePct: '', rampMinutes: '60' },
];

/**
 * The program to send. Numbers go as typed (a blank as NaN becomes null for humidity only): the server
 * checks ranges, order and ramps and names the field, so the editor does not repeat those rules.
 */
export function programFrom(rows: PeriodRow[], windowSafePosition: WindowSafePosition, keep: Pick<ClimateProgram, 'crop' | 'stages'>): ClimateProgram {
  return {
    ...keep,
    windowSafePosition,
    periods: rows.map((r) => ({
      start: r.start.trim(),
      heatBelowC: Number(r.heatBelowC),
      ventAboveC: Number(r.ventAboveC),
      humidityAbovePct: r.humidityAbovePct.trim() === '' ? null : Number(r.humidityAbovePct),
      rampMinutes: Number(r.rampMinutes),
    })),
  };
}

/** "periods.1.rampMinutes" → { row: 1, key: 'rampMinutes' } so the editor marks the input; null otherwise. */
export function fieldToCell(field: string | undefined): { row: number; key: keyof PeriodRow } | null {
  const m = /^periods\.(\d+)\.(start|heatBelowC|ventAboveC|humidityAbovePct|rampMinutes)$/.exec(field ?? '');
  return m ? { row: Number(m[1]), key: m[2] as keyof PeriodRow } : null;
}
