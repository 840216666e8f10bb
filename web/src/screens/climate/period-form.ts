// The editor's rows as typed (strings) and the program they make; pure, unit-tested.
import type { ClimatePeriod, ClimateProgram, GrowStage, WindowSafePosition } from '../../../../server/contract/climate.ts';

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
    periods: periodsFrom(rows),
  };
}

function periodsFrom(rows: PeriodRow[]): ClimatePeriod[] {
  return rows.map((r) => ({
    start: r.start.trim(),
    heatBelowC: Number(r.heatBelowC),
    ventAboveC: Number(r.ventAboveC),
    humidityAbovePct: r.humidityAbovePct.trim() === '' ? null : Number(r.humidityAbovePct),
    rampMinutes: Number(r.rampMinutes),
  }));
}

/**
 * "periods.1.rampMinutes" → { row: 1, key: 'rampMinutes' } so the editor marks the input; with a prefix
 * ("stages.0.periods") the same within a grow stage; null otherwise.
 */
export function fieldToCell(field: string | undefined, prefix = 'periods'): { row: number; key: keyof PeriodRow } | null {
  if (!field?.startsWith(`${prefix}.`)) return null;
  const m = /^(\d+)\.(start|heatBelowC|ventAboveC|humidityAbovePct|rampMinutes)$/.exec(field.slice(prefix.length + 1));
  return m ? { row: Number(m[1]), key: m[2] as keyof PeriodRow } : null;
}

/** A grow stage as typed. */
export interface StageRow {
  name: string;
  fromDay: string;
  photoperiodHours: string;
  periods: PeriodRow[];
}

export const toStageRow = (s: GrowStage): StageRow => ({
  name: s.name,
  fromDay: String(s.fromDay),
  photoperiodHours: s.photoperiodHours === null || s.photoperiodHours === undefined ? '' : String(s.photoperiodHours),
  periods: s.periods.map(toRow),
});

export const stageFrom = (r: StageRow): GrowStage => ({
  name: r.name.trim(),
  fromDay: Number(r.fromDay),
  photoperiodHours: r.photoperiodHours.trim() === '' ? null : Number(r.photoperiodHours),
  periods: periodsFrom(r.periods),
});
